package io.sluice.gateway;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.gateway.config.SluiceConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What SIGHUP does: re-read the configuration (flags, environment, config file) and hand it to
 * every reloadable part, each of which checks its new version completely before anything
 * changes. A part whose new version is bad is refused: its previous version keeps serving, the
 * refusal is logged and counted ({@code sluice_config_reloads_total{part, result}}); the others
 * still reload. Connections and counters are untouched: parts swap what decides, not what is held.
 *
 * <p>Adding a part is one line: {@code reloader.add("tls certificates", config -> { Certs next =
 * Certs.load(config); return () -> server.replaceCertificates(next); });}
 */
final class Reloader {

  /** One reloadable part of the running server. */
  @FunctionalInterface
  interface Part {
    /**
     * Reads and checks this part's new version from {@code config}, changing nothing.
     *
     * @return what puts the new version in service; it must not fail
     * @throws Exception when the new version cannot be used; the message is logged as the reason
     */
    Runnable prepare(SluiceConfig config) throws Exception;
  }

  private static final System.Logger LOG = System.getLogger(Reloader.class.getName());

  private final Callable<SluiceConfig> configuration;
  private final MeterRegistry metrics;
  private final Map<String, Part> parts = new LinkedHashMap<>();
  /** What the server started with: options a reload cannot apply are compared with it. */
  private final SluiceConfig started;

  /**
   * @param started       the configuration the server started with
   * @param configuration reads the configuration again, from the same flags, environment and file
   */
  Reloader(SluiceConfig started, Callable<SluiceConfig> configuration, MeterRegistry metrics) {
    this.started = started;
    this.configuration = configuration;
    this.metrics = metrics;
  }

  Reloader add(String name, Part part) {
    parts.put(name, part);
    result(name, "ok");
    result(name, "refused");
    return this;
  }

  /** Runs on SIGHUP's thread; one reload at a time. */
  synchronized void reload() {
    SluiceConfig next;
    try {
      next = configuration.call();
    } catch (Exception unreadable) {
      for (String name : parts.keySet()) {
        refuse(name, unreadable);
      }
      return;
    }
    List<String> fixed = started.changedSettings(next);
    if (!fixed.isEmpty()) {
      LOG.log(System.Logger.Level.WARNING, "reload: these options cannot change while Sluice runs and keep their"
          + " values until a restart: " + String.join(", ", fixed), Map.of("options", String.join(" ", fixed)));
    }
    for (Map.Entry<String, Part> part : parts.entrySet()) {
      Runnable install;
      try {
        install = part.getValue().prepare(next);
      } catch (Exception invalid) {
        refuse(part.getKey(), invalid);
        continue;
      }
      install.run();
      result(part.getKey(), "ok").increment();
      LOG.log(System.Logger.Level.INFO, "reload: " + part.getKey() + " reloaded", Map.of("part", part.getKey(), "result", "ok"));
    }
  }

  private void refuse(String name, Exception reason) {
    result(name, "refused").increment();
    LOG.log(System.Logger.Level.WARNING, "reload: " + name + " refused, the previous one stays in service: "
        + reason.getMessage(), Map.of("part", name, "result", "refused"));
  }

  private Counter result(String part, String result) {
    return Counter.builder("sluice.config.reloads")
        .description("Reloads of each reloadable part (SIGHUP): ok, or refused with the previous version kept")
        .tag("part", part)
        .tag("result", result)
        .register(metrics);
  }
}
