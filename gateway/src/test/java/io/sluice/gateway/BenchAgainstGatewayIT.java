package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.verticles.benchmarks.load.Bench;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load tool against the real gateway, through the entry point {@code sluice bench} uses: the
 * tool reads the server's replies and pushes by their layout, so these runs are what notice when
 * the two part ways (the tool then measures nothing and fails). They live here, not in the load
 * module, because that module must not depend on the server. Speed is not asserted here;
 * docs/benchmarks.md has the figures.
 */
class BenchAgainstGatewayTest {

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

    assertThat(runFanout("--in-flight", "2")).isZero();
  }

  @Test
  void fanoutPublishesOnAFixedScheduleWithRate() throws Exception {
    startGateway();

    assertThat(runFanout("--rate", "50")).isZero();
  }

  @Test
  void throttrBenchValidatesEveryReplyOfTheRealServer() throws Exception {
    startGateway();

    assertThat(Bench.run(List.of("--port", String.valueOf(gateway.server().tcpPort()), "--connections", "2",
        "--pipeline", "8", "--keys", "100", "--mix", "query=1,update=1,insert=1,set=1,get=1",
        "--duration", "1", "--warmup", "0"))).isZero();
  }

  @Test
  void grpcBenchValidatesEveryAnswerOfTheRateLimitServiceAndTheCheckApi() throws Exception {
    java.nio.file.Path scripts = java.nio.file.Path.of(System.getProperty("basedir", "."), "..", "verticles", "benchmarks",
        "scripts", "grpc");
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0", "--config", scripts.resolve("sluice.yaml").toString(),
        "--rls-config", scripts.resolve("ratelimit.yaml").toString()), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());

    assertThat(Bench.run(List.of("grpc", "--port", String.valueOf(gateway.server().grpcPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()), "--streams", "4", "--duration", "1",
        "--warmup", "0", "--rounds", "1"))).isZero();
    // Wrong policy: the check API answers 400, which the bench refuses.
    assertThat(Bench.run(List.of("grpc", "--port", String.valueOf(gateway.server().grpcPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()), "--policy", "nope", "--streams", "1",
        "--duration", "1", "--warmup", "0", "--rounds", "1"))).isEqualTo(1);
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
  private String attack(String name, int count) {
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    java.io.PrintStream out = System.out;
    int exit;
    System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      exit = Bench.run(List.of("attack", name, "--count", String.valueOf(count),
          "--tcp-port", String.valueOf(gateway.server().tcpPort()), "--http-port", String.valueOf(gateway.server().httpPort()),
          "--udp-port", String.valueOf(gateway.server().udpPort())));
    } finally {
      System.setOut(out);
    }
    String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    assertThat(text).contains("fresh clients during the attack: throttr yes, http yes, udp yes");
    return text;
  }

  private void startGateway() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());
  }

  private int runFanout(String... load) {
    List<String> args = new ArrayList<>(List.of("fanout", "--port", String.valueOf(gateway.server().tcpPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()),
        "--subscribers", "10", "--duration", "1", "--warmup", "0"));
    args.addAll(List.of(load));
    return Bench.run(args);
  }
}
