package io.sluice.gateway.bench;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fan-out load tool against the real gateway: it reads the bridge's pushes by their layout, so
 * this run is what notices when that layout and the tool part ways (it then measures nothing and
 * fails). Speed is not asserted here; docs/benchmarks.md has the figures.
 */
class FanoutBenchTest {

  private Gateway gateway;

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.stop();
    }
  }

  @Test
  void measuresDeliveriesFromTheRealBridge() throws Exception {
    startGateway();

    assertThat(runBench("--in-flight", "2")).isZero();
  }

  @Test
  void publishesOnAFixedScheduleWithRate() throws Exception {
    startGateway();

    assertThat(runBench("--rate", "50")).isZero();
  }

  private void startGateway() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--udp-port", "0"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());
  }

  private int runBench(String... load) throws Exception {
    List<String> args = new ArrayList<>(List.of("--port", String.valueOf(gateway.server().tcpPort()),
        "--http-port", String.valueOf(gateway.server().httpPort()),
        "--subscribers", "10", "--duration", "1", "--warmup", "0"));
    args.addAll(List.of(load));
    return FanoutBench.run(args);
  }

  @Test
  void readsTheSendTimeOfAPushAndNothingElse() {
    assertThat(FanoutBench.sentAt("{\"event\":\"message\",\"channel\":\"bench.fanout\",\"data\":\"12345\"}"))
        .isEqualTo(12345L);
    assertThat(FanoutBench.sentAt("{\"event\":\"ack\",\"op\":\"subscribe\",\"status\":1,\"channel\":\"bench.fanout\"}"))
        .isEqualTo(-1L);
    assertThat(FanoutBench.sentAt("{\"event\":\"message\",\"channel\":\"other\",\"data\":\"12345\"}")).isEqualTo(-1L);
    assertThat(FanoutBench.sentAt("{\"event\":\"message\",\"channel\":\"bench.fanout\",\"data\":\"x1\"}")).isEqualTo(-1L);
  }
}
