package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGHUP reloads from the moment the start line says Sluice serves. ReloadTest sends it a few
 * requests after that line; when the handler was installed a few lines later, a main thread paused
 * between the two (a loaded machine) left the JVM's own handling, which stops the process on SIGHUP.
 */
class HangupBeforeStartLineTest {

  private static final Signal HUP = new Signal("HUP");

  @Test
  void theStartLineIsWrittenOnceSighupReloads() throws Exception {
    // Not whatever an earlier gateway of this JVM installed: this test's own marker until the start.
    SignalHandler marker = signal -> { };
    SignalHandler before = Signal.handle(HUP, marker);
    AtomicReference<String> handlerAtStartLine = new AtomicReference<>("no start line");
    Logger log = Logger.getLogger(Gateway.class.getName());
    Handler watch = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getMessage().contains("serving Throttr on")) {
          SignalHandler current = Signal.handle(HUP, marker);
          Signal.handle(HUP, current);
          handlerAtStartLine.set(current == marker ? "none of the gateway" : current.getClass().getName());
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
      gateway = Gateway.start(((Invocation.Run) ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0",
          "--grpc-port", "0", "--udp-port", "0"), Map.of())).config());
    } finally {
      log.removeHandler(watch);
      if (gateway != null) {
        gateway.stop();
      }
      Signal.handle(HUP, before);
    }
    assertThat(handlerAtStartLine.get()).startsWith(HangupSignal.class.getName());
  }
}
