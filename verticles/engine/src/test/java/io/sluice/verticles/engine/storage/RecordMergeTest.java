package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.StoredRate;
import io.sluice.verticles.engine.udprate.rate.StoredState;
import io.sluice.verticles.engine.udprate.rate.WindowState;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Which copy of a record a heal keeps, per kind of record. */
class RecordMergeTest {

  @Test
  void aThrottrCounterKeepsTheLowerQuotaAndTheLaterExpiryWithItsUnit() {
    RecordCopy joined = RecordMerge.consumedMore(RecordCopy.counter(3, 100, 7), RecordCopy.counter(4, 200, 2));
    assertThat(joined).isEqualTo(RecordCopy.counter(4, 200, 2));
    RecordCopy held = RecordCopy.counter(3, 200, 2);
    assertThat(RecordMerge.consumedMore(held, RecordCopy.counter(4, 100, 7))).isSameAs(held);
    assertThat(RecordMerge.consumedMore(RecordCopy.counter(3, 100, -1L), RecordCopy.counter(3, 100, 5)).value())
        .as("values are unsigned, as on the wire").isEqualTo(5);
  }

  @Test
  void aCheckApiStateKeepsItsStrategysStricterState() {
    RecordCopy joined = RecordMerge.consumedMore(buffer("12|7|100", 500), buffer("12|2|90", 400));
    assertThat(text(joined)).isEqualTo("12|2|100");
    assertThat(joined.expiresAtNanos()).isEqualTo(500);
  }

  @Test
  void anEnvoyWindowCountKeepsTheHigherCount() {
    assertThat(text(RecordMerge.consumedMore(buffer("17", 60), buffer("240", 60)))).isEqualTo("240");
    assertThat(text(RecordMerge.consumedMore(buffer("240", 60), buffer("17", 60)))).isEqualTo("240");
  }

  @Test
  void aUdpRateKeepsTheHigherRateAtTheLaterTime() {
    RecordCopy held = RecordCopy.buffer(3, 60, StoredRate.encode(new RateState(10, 4.5)));
    RecordCopy incoming = RecordCopy.buffer(3, 60, StoredRate.encode(new RateState(12, 2)));
    assertThat(StoredRate.decode(RecordMerge.consumedMore(held, incoming).buffer())).isEqualTo(new RateState(12, 4.5));
  }

  @Test
  void aUdpSlidingWindowKeepsTheStricterWindowAsTheCheckApisDoes() {
    RecordCopy held = RecordCopy.buffer(3, 60, StoredState.encode(new WindowState("71|3|1|600")));
    RecordCopy incoming = RecordCopy.buffer(3, 90, StoredState.encode(new WindowState("71|2|4|600")));
    RecordCopy joined = RecordMerge.consumedMore(held, incoming);
    assertThat(StoredState.decode(joined.buffer())).isEqualTo(new WindowState("71|3|4|600"));
    assertThat(joined.expiresAtNanos()).isEqualTo(90);
  }

  @Test
  void aBufferWithoutQuotaOrCopiesOfTwoKindsKeepTheHeldValue() {
    assertThat(text(RecordMerge.consumedMore(buffer("hello", 60), buffer("world", 90)))).isEqualTo("hello");
    RecordCopy counter = RecordCopy.counter(3, 60, 5);
    assertThat(RecordMerge.consumedMore(counter, buffer("12|1|1", 90))).isSameAs(counter);
  }

  private static RecordCopy buffer(String text, long expiresAt) {
    return RecordCopy.buffer(3, expiresAt, text.getBytes(StandardCharsets.ISO_8859_1));
  }

  private static String text(RecordCopy copy) {
    return new String(copy.buffer(), StandardCharsets.ISO_8859_1);
  }
}
