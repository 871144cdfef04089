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

  @Test
  void readsTheSendTimeOffsetAndEpochOfAMessageWithHistory() {
    String message = "{\"event\":\"message\",\"channel\":\"bench.fanout\",\"data\":\"12345\",\"offset\":42,"
        + "\"epoch\":\"9f3c51e07a2b44d1\"}";
    assertThat(FanoutBench.sentAt(message)).isEqualTo(12345L);
    assertThat(OffsetCheck.offsetOf(message)).isEqualTo(42L);
    assertThat(OffsetCheck.epochOf(message)).isEqualTo("9f3c51e07a2b44d1");
    assertThat(OffsetCheck.offsetOf("{\"event\":\"message\",\"channel\":\"bench.fanout\",\"data\":\"1\"}")).isEqualTo(-1L);
  }

  @Test
  void countsGapsAndDuplicatesPerSubscriber() {
    OffsetCheck check = new OffsetCheck();
    OffsetCheck.Subscriber subscriber = check.new Subscriber();
    for (long offset : new long[] {1, 2, 2, 4, 5}) {
      subscriber.seen("{\"data\":\"1\",\"offset\":" + offset + ",\"epoch\":\"00000000000000aa\"}");
    }
    assertThat(check.duplicates.get()).isEqualTo(1);
    assertThat(check.gaps.get()).isEqualTo(1);
    assertThat(check.latestOffset()).isEqualTo(5);
  }
}
