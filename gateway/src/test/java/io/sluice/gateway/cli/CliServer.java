package io.sluice.gateway.cli;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.Reread;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.gateway.process.Waits;
import io.sluice.verticles.engine.time.ManualClock;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real Sluice on free loopback ports, its clock moved by hand, and runs of {@code sluice cli}
 * against it: each run is told the server's Throttr port and HTTP URL, then the test's arguments.
 */
final class CliServer implements AutoCloseable {

  /** One run of the client: exit status, stdout and stderr. */
  record Run(int status, String out, String err) {
  }

  final ManualClock clock = new ManualClock();
  private final long startedAtNanos = clock.epochNanos();
  private final Gateway gateway;
  private final String scheme;

  /** @param options server options besides the ports, such as {@code --config FILE} */
  CliServer(String... options) throws Exception {
    List<String> all = new ArrayList<>(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"));
    all.addAll(List.of(options));
    SluiceConfig config = ((Invocation.Run) ConfigLoader.load(all, Map.of())).config();
    gateway = Gateway.start(config, () -> Reread.of(config), clock);
    scheme = config.tlsCertificate().isPresent() ? "https" : "http";
  }

  /**
   * Moves the clock to the server's next one-minute tick (counted from its start), where the
   * statistics of the minute before become visible.
   */
  void toNextMinuteTick() {
    long minute = Duration.ofMinutes(1).toNanos();
    clock.advance(Duration.ofNanos(minute - (clock.epochNanos() - startedAtNanos) % minute));
  }

  /**
   * Waits until the server holds no client connection. A run of the client closes its connection as
   * it ends, but the server learns of that close on its own event loop, later: a command that counts
   * connections, run right after another, could otherwise count the earlier run's too.
   */
  void awaitNoConnections() {
    Waits.until(Duration.ofSeconds(30), "the server saw the connections of earlier runs close",
        () -> gateway.server().instance().connections().size() == 0);
  }

  int tcpPort() {
    return gateway.server().tcpPort();
  }

  String httpUrl() {
    return scheme + "://127.0.0.1:" + gateway.server().httpPort();
  }

  Run cli(String... args) {
    return cli(Map.of(), new ByteArrayInputStream(new byte[0]), args);
  }

  /** The prompt: {@code input} holds the commands, one a line. */
  Run prompt(String input, String... args) {
    return cli(Map.of(), new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), args);
  }

  Run cli(Map<String, String> environment, InputStream in, String... args) {
    List<String> all = new ArrayList<>(List.of("--port", Integer.toString(tcpPort()), "--http", httpUrl()));
    all.addAll(List.of(args));
    return run(all, environment, in);
  }

  /** A run with exactly these arguments: no port or URL added. */
  static Run run(List<String> args, Map<String, String> environment, InputStream in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Cli.run(args, environment, in, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    gateway.stop();
  }
}
