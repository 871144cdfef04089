package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static io.sluice.protocol.binary.codec.CodecTestKit.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.CodecTestKit.Feeding;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;
import io.sluice.protocol.binary.codec.CodecTestKit.Wire;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * An incomplete frame is held in a buffer of exactly its length, reserved from a budget that every
 * connection shares; the connection whose frame would take the budget over its limit is refused.
 */
class PartialFrameBudgetTest {

  private static final int MAX_FRAME = 100_000;

  /** A uint32 SET of {@code length} bytes in all (key "k"). */
  private static byte[] set(int length) {
    int valueLength = length - 7 - 1;
    return Wire.of(ValueSize.UINT32).u8(0x05).u8(0x04).n(60).u8(1).n(valueLength).ascii("k")
        .raw(repeat(0x41, valueLength)).bytes();
  }

  @Test
  void holdsAnIncompleteFrameInABufferOfItsOwnLengthFedByteByByte() {
    byte[] frame = set(30_000);
    PartialFrameBudget budget = new PartialFrameBudget(1_000_000);
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT32, MAX_FRAME, budget);

    decoder.feed(Feeding.oneByteAtATime(), Arrays.copyOf(frame, 5));
    assertThat(decoder.reservedBytes()).as("header not complete: room for the longest header").isEqualTo(3 + 2 * 4);

    decoder.feed(Feeding.oneByteAtATime(), Arrays.copyOfRange(frame, 5, frame.length - 1));
    assertThat(decoder.reservedBytes()).as("header complete: room for the frame, never more").isEqualTo(frame.length);
    assertThat(budget.held()).isEqualTo(frame.length);

    decoder.feedWhole(new byte[] {frame[frame.length - 1]});
    assertThat(decoder.requests()).hasSize(1);
    assertThat(budget.held()).isZero();
  }

  @Test
  void refusesTheConnectionWhoseFrameWouldExceedTheSharedLimit() {
    PartialFrameBudget budget = new PartialFrameBudget(50_000);
    RecordingDecoder first = new RecordingDecoder(ValueSize.UINT32, MAX_FRAME, budget);
    RecordingDecoder second = new RecordingDecoder(ValueSize.UINT32, MAX_FRAME, budget);
    byte[] frame = set(30_000);

    first.feedWhole(Arrays.copyOf(frame, 100));
    second.feedWhole(Arrays.copyOf(frame, 100));

    assertThat(first.errors()).isEmpty();
    assertThat(second.errors()).singleElement().satisfies(error -> {
      assertThat(error.reason()).isEqualTo(DecodeError.Reason.PARTIAL_FRAMES_OVER_LIMIT);
      assertThat(error.message()).contains("50000");
    });
    assertThat(budget.held()).isEqualTo(frame.length);

    first.feedWhole(Arrays.copyOfRange(frame, 100, frame.length));
    assertThat(first.requests()).hasSize(1);
    assertThat(budget.held()).isZero();
  }

  @Test
  void givesTheBudgetBackWhenTheConnectionCloses() {
    PartialFrameBudget budget = new PartialFrameBudget(50_000);
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT32, MAX_FRAME, budget);
    decoder.feedWhole(Arrays.copyOf(set(30_000), 10));

    decoder.close();

    assertThat(budget.held()).isZero();
    decoder.feedWhole(hex("18"));
    assertThat(decoder.events()).isEmpty();
  }

  @Test
  void givesTheBudgetBackOnBadInputAfterAnIncompleteFrame() {
    PartialFrameBudget budget = new PartialFrameBudget(50_000);
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT32, MAX_FRAME, budget);
    decoder.feedWhole(hex("02 05 61"));

    decoder.feedWhole(hex("62 63 64 65 ff"));

    assertThat(decoder.requests()).hasSize(1);
    assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.UNKNOWN_TYPE);
    assertThat(budget.held()).isZero();
  }
}
