package io.sluice.verticles.benchmarks.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The fan-out tool's reading of a push; its runs against the real gateway are in the gateway's tests. */
class FanoutBenchTest {

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
