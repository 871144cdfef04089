package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.Reread;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.verticles.engine.time.Clock;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Signals are handled from the moment the start line says Sluice serves: whoever waits for that line
 * (an operator's script, ReloadTest, a process supervisor) may signal at once. When SIGHUP's handler
 * was installed a few lines later, a main thread paused between the two (a loaded machine) left the
 * JVM's own handling, which stops the process on SIGHUP; when the shutdown hook was added after
 * start returned, a SIGTERM in between ended the process undrained, its last writes not persisted.
 */
class SignalsAtStartLineTest {

  private static final Signal HUP = new Signal("HUP");

  private static SluiceConfig config() throws Exception {
    return ((Invocation.Run) ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0"), Map.of())).config();
  }

  /** What {@code probe} says at the moment the start line is logged, with {@code serving} as the start's hook. */
  private static String atStartLine(Supplier<String> probe, Consumer<Gateway> serving) throws Exception {
    AtomicReference<String> seen = new AtomicReference<>("no start line");
    Logger log = Logger.getLogger(Gateway.class.getName());
    Handler watch = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getMessage().contains("serving Throttr on")) {
          seen.set(probe.get());
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    log.addHandler(watch);
    Gateway gateway = null;
    try {
      SluiceConfig config = config();
      gateway = Gateway.start(config, () -> Reread.of(config), Clock.SYSTEM, serving);
    } finally {
      log.removeHandler(watch);
      if (gateway != null) {
        gateway.stop();
      }
    }
    return seen.get();
  }

  @Test
  void theStartLineIsWrittenOnceSighupReloads() throws Exception {
    // Not whatever an earlier gateway of this JVM installed: this test's own marker until the start.
    SignalHandler marker = signal -> { };
    SignalHandler before = Signal.handle(HUP, marker);
    try {
      String handler = atStartLine(() -> {
        SignalHandler current = Signal.handle(HUP, marker);
        Signal.handle(HUP, current);
        return current == marker ? "none of the gateway" : current.getClass().getName();
      }, gateway -> { });
      assertThat(handler).startsWith(HangupSignal.class.getName());
    } finally {
      Signal.handle(HUP, before);
    }
  }

  @Test
  void theStartLineIsWrittenOnceTheServingHookRan() throws Exception {
    // The sluice command's hook is Gateway::stopOnSignal (startStoppingOnSignal): not added to this
    // JVM here, where a shutdown hook would outlive the test.
    AtomicBoolean ran = new AtomicBoolean();
    String atLine = atStartLine(() -> ran.get() ? "hook ran" : "hook not yet run", gateway -> ran.set(true));
    assertThat(atLine).isEqualTo("hook ran");
  }
}
