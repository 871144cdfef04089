package io.sluice.gateway;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.gateway.config.Reread;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.reload.LastReload;
import io.sluice.verticles.server.reload.ReloadReport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * What SIGHUP does: re-read the configuration (flags, environment, config file) and hand it to
 * every reloadable part, each of which checks its new version completely before anything
 * changes. A part whose new version is bad is refused: its previous version keeps serving, one
 * WARN line says why, and the refusal is counted ({@code sluice_config_reloads_total{part, result}});
 * the others still reload. One INFO line says what the parts put in service changed, and the
 * admin API shows the same ({@link LastReload}). A configuration that cannot be read at all is one
 * refusal, of the part {@code configuration}, and nothing changes. Connections and counters are
 * untouched: parts swap what decides, not what is held.
 *
 * <p>Adding a part is one line: {@code reloader.add("tls certificates", next -> { Certs certs =
 * Certs.load(next.config()); return () -> { server.replaceCertificates(certs); return "tls
 * certificates reloaded"; }; });}
 */
final class Reloader {

  /** One reloadable part of the running server. */
  @FunctionalInterface
  interface Part {
    /**
     * Reads and checks this part's new version from {@code next}, changing nothing.
     *
     * @return what puts the new version in service
     * @throws Exception when the new version cannot be used; the message, which names the file
     *                   and what is wrong, is logged as the reason
     */
    Install prepare(Reread next) throws Exception;
  }

  /** Puts a checked new version in service; it must not fail. */
  @FunctionalInterface
  interface Install {
    /** @return what changed, for the log and the admin API: {@code policies added [a], changed [], removed []} */
    String install();
  }

  /** The part a configuration that cannot be read at all is counted and reported as. */
  static final String CONFIGURATION = "configuration";

  private static final System.Logger LOG = System.getLogger(Reloader.class.getName());

  private final Callable<Reread> configuration;
  private final MeterRegistry metrics;
  private final Clock clock;
  private final LastReload last;
  private final Map<String, Part> parts = new LinkedHashMap<>();
  /** What the server started with: options a reload cannot apply are compared with it. */
  private final SluiceConfig started;

  /**
   * @param started       the configuration the server started with
   * @param configuration reads the configuration again, from the same flags, environment and file
   * @param last          where each reload's report goes, for the admin API
   */
  Reloader(SluiceConfig started, Callable<Reread> configuration, MeterRegistry metrics, Clock clock, LastReload last) {
    this.started = started;
    this.configuration = configuration;
    this.metrics = metrics;
    this.clock = clock;
    this.last = last;
    counters(CONFIGURATION);
  }

  Reloader add(String name, Part part) {
    parts.put(name, part);
    counters(name);
    return this;
  }

  /**
   * Runs on SIGHUP's thread; one reload at a time. The report and the counters change before any
   * line of the reload is written: whoever reads a line (an operator, a script, a test) and then
   * asks the admin API or /metrics finds the reload the line tells of, not the one before.
   */
  synchronized void reload() {
    long atMillis = TimeUnit.NANOSECONDS.toMillis(clock.epochNanos());
    List<Line> lines = new ArrayList<>();
    Reread next;
    try {
      next = configuration.call();
    } catch (Exception unreadable) {
      last.record(new ReloadReport(atMillis, List.of(refuse(CONFIGURATION, unreadable,
          "reload refused, nothing changed: ", lines))));
      lines.forEach(Line::write);
      return;
    }
    List<String> fixed = started.changedSettings(next.config());
    if (!fixed.isEmpty()) {
      lines.add(new Line(System.Logger.Level.WARNING, "reload: these options cannot change while Sluice runs and keep"
          + " their values until a restart: " + String.join(", ", fixed), Map.of("options", String.join(" ", fixed))));
    }
    List<ReloadReport.PartResult> results = new ArrayList<>();
    for (Map.Entry<String, Part> part : parts.entrySet()) {
      Install install;
      try {
        install = part.getValue().prepare(next);
      } catch (Exception invalid) {
        results.add(refuse(part.getKey(), invalid, "reload: " + part.getKey() + " refused, the previous one stays in service: ",
            lines));
        continue;
      }
      results.add(new ReloadReport.PartResult(part.getKey(), true, install.install()));
      result(part.getKey(), "ok").increment();
    }
    List<String> changes = results.stream().filter(ReloadReport.PartResult::reloaded)
        .map(ReloadReport.PartResult::detail).collect(Collectors.toList());
    if (!changes.isEmpty()) {
      lines.add(new Line(System.Logger.Level.INFO, "reloaded: " + String.join("; ", changes), Map.of("result", "ok")));
    }
    last.record(new ReloadReport(atMillis, results));
    lines.forEach(Line::write);
  }

  /** Counts a refused part and adds the WARN line that says why to {@code lines}. */
  private ReloadReport.PartResult refuse(String name, Exception reason, String prefix, List<Line> lines) {
    result(name, "refused").increment();
    lines.add(new Line(System.Logger.Level.WARNING, prefix + reason.getMessage(), Map.of("part", name, "result", "refused")));
    return new ReloadReport.PartResult(name, false, reason.getMessage());
  }

  /** A line of the log, with the fields the JSON format adds; written once the reload is recorded. */
  private record Line(System.Logger.Level level, String message, Map<String, String> fields) {
    void write() {
      LOG.log(level, message, fields);
    }
  }

  /** Both series of a part from the start, so that a dashboard sees a zero before the first reload. */
  private void counters(String part) {
    result(part, "ok");
    result(part, "refused");
  }

  private Counter result(String part, String result) {
    return Counter.builder("sluice.config.reloads")
        .description("Reloads of each reloadable part (SIGHUP): ok, or refused with the previous version kept")
        .tag("part", part)
        .tag("result", result)
        .register(metrics);
  }
}
