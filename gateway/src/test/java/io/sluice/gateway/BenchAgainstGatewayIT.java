package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.process.ChildProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load tool against the real gateway, as {@code java -jar sluice.jar bench …} runs it (the
 * packaged sluice.jar runs the sluice-bench.jar beside it): the tool reads the server's replies and
 * pushes by their layout, so these runs are what notice when the two part ways (the tool then
 * measures nothing and fails). They live here, not in the load module, because that module must not
 * depend on the server; they run after {@code package} built both jars. Speed is not asserted here;
 * docs/benchmarks.md has the figures.
 */
@EnabledIfSystemProperty(named = "sluice.jar", matches = ".+",
    disabledReason = "runs in the distribution-tests execution, after package built sluice.jar and sluice-bench.jar")
class BenchAgainstGatewayIT {

  /** Where the build put sluice.jar: set by the surefire execution that runs after `package`. */
  private static final Path SLUICE_JAR = Path.of(System.getProperty("sluice.jar", "unset")).toAbsolutePath();

  private Gateway gateway;

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.stop();
    }
  }

  @Test
  void fanoutMeasuresDeliveriesFromTheRealBridge() throws Exception {
    startGateway();

    assertSucceeds(runFanout("--in-flight", "2"));
  }

  @Test
  void fanoutPublishesOnAFixedScheduleWithRate() throws Exception {
    startGateway();

    assertSucceeds(runFanout("--rate", "50"));
  }

  @Test
  void throttrBenchValidatesEveryReplyOfTheRealServer() throws Exception {
    startGateway();

    assertSucceeds(bench("--port", String.valueOf(gateway.server().tcpPort()), "--connections", "2",
        "--pipeline", "8", "--keys", "100", "--mix", "query=1,update=1,insert=1,set=1,get=1",
        "--duration", "1", "--warmup", "0"));
  }

  @Test
  void grpcBenchValidatesEveryAnswerOfTheRateLimitServiceAndTheCheckApi() throws Exception {
    java.nio.file.Path scripts = java.nio.file.Path.of(System.getProperty("basedir", "."), "..", "verticles", "benchmarks",
        "scripts", "grpc");
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0", "--config", scripts.resolve("sluice.yaml").toString(),
        "--rls-config", scripts.resolve("ratelimit.yaml").toString()), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());

    assertSucceeds(bench("grpc", "--port", String.valueOf(gateway.server().grpcPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()), "--streams", "4", "--duration", "1",
        "--warmup", "0", "--rounds", "1"));
    // Wrong policy: the check API answers 400, which the bench refuses (it waits for every loop's last
    // answer before its verdict, so a first answer after the measured second still counts).
    ChildProcess.Finished refused = bench("grpc", "--port", String.valueOf(gateway.server().grpcPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()), "--policy", "nope", "--streams", "1",
        "--duration", "1", "--warmup", "0", "--rounds", "1");
    assertThat(refused.status()).as(refused.output()).isEqualTo(1);
  }

  /**
   * Every attack of {@code bench attack}, small, against the real gateway: what the server answered
   * is what docs/security.md says, and fresh clients are served after each (exit 0).
   */
  @Test
  void attacksMeetTheirBoundsAndFreshClientsAreServed() throws Exception {
    java.nio.file.Path rules = java.nio.file.Path.of(System.getProperty("basedir", "."), "..", "deploy", "rules", "musicbrainz.yaml");
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0", "--rules", rules.toString(), "--max-subscriptions", "10"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());

    assertThat(attack("subscribe", 20)).contains("20 SUBSCRIBEs to distinct channels on one connection: 8 accepted, 12 refused");
    assertThat(attack("udp-keys", 1_000)).contains("1000 distinct UDP keys sent");
    assertThat(attack("pipeline", 20_000)).contains("20000 of 20000 GETs answered with the value");
    assertThat(attack("connections", 50)).contains("50 Throttr connections open at once, 50 of them served a WHOAMI");
    assertThat(attack("churn", 50)).contains("50 connect/WHOAMI/close rounds, 50 served");
    assertThat(attack("ws-frame", 1)).contains("{close 1009=1}");
    assertThat(attack("http-headers", 2)).contains("{HTTP/1.1 431 Request Header Fields Too Large=2}");
  }

  /** Runs one attack; answers what it printed, having checked that it exited 0 (fresh clients served). */
  private String attack(String name, int count) throws Exception {
    ChildProcess.Finished attack = bench("attack", name, "--count", String.valueOf(count),
        "--tcp-port", String.valueOf(gateway.server().tcpPort()), "--http-port", String.valueOf(gateway.server().httpPort()),
        "--udp-port", String.valueOf(gateway.server().udpPort()));
    assertSucceeds(attack);
    assertThat(attack.output()).contains("fresh clients during the attack: throttr yes, http yes, udp yes");
    return attack.output();
  }

  /** {@code java -jar sluice.jar bench args…} run to its end. */
  private static ChildProcess.Finished bench(String... args) throws Exception {
    List<String> benchArgs = new ArrayList<>(List.of("bench"));
    benchArgs.addAll(List.of(args));
    return ChildProcess.run(ChildProcess.javaJarCommand(SLUICE_JAR, benchArgs.toArray(String[]::new)), Map.of(),
        SLUICE_JAR.getParent());
  }

  private static void assertSucceeds(ChildProcess.Finished bench) {
    assertThat(bench.status()).as(bench.output()).isZero();
  }

  private void startGateway() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());
  }

  private ChildProcess.Finished runFanout(String... load) throws Exception {
    List<String> args = new ArrayList<>(List.of("fanout", "--port", String.valueOf(gateway.server().tcpPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()),
        "--subscribers", "10", "--duration", "1", "--warmup", "0"));
    args.addAll(List.of(load));
    return bench(args.toArray(String[]::new));
  }
}
