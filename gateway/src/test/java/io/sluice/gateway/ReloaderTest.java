package io.sluice.gateway;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.Reread;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.reload.LastReload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of what a reload does: its report is recorded before its lines are written. ReloadTest
 * reads the admin API's last reload right after the line it awaited; when the line came first, a
 * loaded machine could pause the reloading thread between the two and the API showed the reload before.
 */
class ReloaderTest {

  private final LastReload last = new LastReload();
  /** Each line written, with the outcome the admin API showed at that moment. */
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final Logger log = Logger.getLogger(Reloader.class.getName());
  private final Handler whatTheApiShowed = new Handler() {
    @Override
    public void publish(LogRecord record) {
      lines.add(record.getMessage() + " | " + last.get().map(report -> report.outcome().spelling()).orElse("no reload"));
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };
  private Level levelBefore;

  @BeforeEach
  void listen() {
    levelBefore = log.getLevel();
    log.setLevel(Level.ALL);
    log.addHandler(whatTheApiShowed);
  }

  @AfterEach
  void stopListening() {
    log.removeHandler(whatTheApiShowed);
    log.setLevel(levelBefore);
  }

  private Reloader reloader(Callable<Reread> configuration) throws Exception {
    SluiceConfig started = ((Invocation.Run) ConfigLoader.load(List.of(), Map.of())).config();
    return new Reloader(started, configuration, new SimpleMeterRegistry(), Clock.SYSTEM, last);
  }

  @Test
  void everyLineOfAReloadIsWrittenOnceTheApiShowsThatReload() throws Exception {
    SluiceConfig same = ((Invocation.Run) ConfigLoader.load(List.of(), Map.of())).config();
    reloader(() -> Reread.of(same))
        .add("policies", next -> () -> "policies added [a]")
        .add("udp rules", next -> {
          throw new IOException("rules.yaml:2: invalid regular expression");
        })
        .reload();
    reloader(() -> {
      throw new IOException("sluice.yaml:1: malformed YAML");
    }).reload();

    assertThat(lines).containsExactly(
        "reload: udp rules refused, the previous one stays in service: rules.yaml:2: invalid regular expression"
            + " | partly refused",
        "reloaded: policies added [a] | partly refused",
        "reload refused, nothing changed: sluice.yaml:1: malformed YAML | refused");
  }
}
