package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.describe;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.CodecTestKit.Feeding;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;
import io.sluice.protocol.binary.codec.CodecTestKit.Wire;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * EVENTs inside EVENTs: at most {@link EventNesting#MAX_DEPTH} frames deep, unwrapped at once
 * without recursion; one level more is bad input, reported once like an unknown type byte.
 */
class EventNestingTest {

  private static final byte[] QUERY_EV = hex("02 02 65 76");

  /** {@code depth} EVENTs, each with a one-byte channel, around {@code inner}. */
  static byte[] nested(int depth, byte[] inner) {
    return nested(depth, inner, "c");
  }

  static byte[] nested(int depth, byte[] inner, String channel) {
    byte[] frame = inner;
    for (int level = 0; level < depth; level++) {
      frame = Wire.of(ValueSize.UINT16).u8(0x19).u8(channel.length()).n(frame.length).ascii(channel).raw(frame).bytes();
    }
    return frame;
  }

  @ParameterizedTest(name = "fed {0}")
  @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")
  void unwrapsEightLevelsAtOnce(Feeding feeding) {
    byte[] eight = nested(EventNesting.MAX_DEPTH, QUERY_EV);

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feed(feeding, eight);

    assertThat(decoder.errors()).isEmpty();
    assertThat(decoder.requests()).singleElement().isInstanceOfSatisfying(Request.Event.class, event -> {
      assertThat(event.depth()).isEqualTo(8);
      assertThat(event.innerType()).isEqualTo(RequestType.QUERY.code());
      // The innermost request itself, not seven more Event objects each holding a copy of its payload.
      assertThat(describe(event.inner())).isEqualTo(describe(new Request.Query(ascii("ev"))));
    });
  }

  @ParameterizedTest(name = "fed {0}")
  @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")
  void reportsANinthLevelOnceAfterTheFramesBeforeIt(Feeding feeding) {
    byte[] stream = CodecTestKit.concat(hex("18"), nested(EventNesting.MAX_DEPTH + 1, QUERY_EV), hex("18"));

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feed(feeding, stream);

    assertThat(decoder.requests()).containsExactly(Request.Bare.WHOAMI);
    assertThat(decoder.errors()).singleElement().satisfies(error -> {
      assertThat(error.reason()).isEqualTo(DecodeError.Reason.EVENT_TOO_DEEP);
      assertThat(error.message()).isEqualTo("EVENT nested more than 8 deep");
    });
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @Test
  void anEighthLevelWhosePayloadIsNoWholeFrameAnswersAsUsual() {
    // The ninth "EVENT" is cut short: there is nothing to run, as for any truncated payload.
    byte[] eight = nested(EventNesting.MAX_DEPTH, hex("19 01 09"));

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feedWhole(eight);

    assertThat(decoder.errors()).isEmpty();
    assertThat(decoder.requests()).singleElement().isInstanceOfSatisfying(Request.Event.class, event -> {
      assertThat(event.depth()).isEqualTo(8);
      assertThat(event.inner()).isNull();
      assertThat(event.innerType()).isEqualTo(0x19);
    });
  }

  @Test
  void theProbesTwoThousandLevelsAreRefusedOnASmallStack() throws Exception {
    // 2,023 levels fit in 8,096 bytes; the old recursive parser overflowed the stack on them.
    byte[] deepest = nested(2_023, hex("18"), "");
    assertThat(deepest.length).isLessThanOrEqualTo(CodecTestKit.MAX_FRAME);
    CompletableFuture<RecordingDecoder> decoded = new CompletableFuture<>();
    Thread smallStack = new Thread(null, () -> {
      try {
        decoded.complete(new RecordingDecoder(ValueSize.UINT16).feedWhole(deepest));
      } catch (Throwable error) {
        decoded.completeExceptionally(error);
      }
    }, "small stack", 128 * 1024);
    smallStack.start();

    RecordingDecoder decoder = decoded.get(30, TimeUnit.SECONDS);

    assertThat(decoder.requests()).isEmpty();
    assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.EVENT_TOO_DEEP);
  }

  @Test
  void countsLevelsInAPayloadLikeTheDecoder() {
    byte[] payload = nested(3, QUERY_EV);

    EventNesting nesting = EventNesting.of(io.netty.buffer.Unpooled.wrappedBuffer(payload), 0, payload.length,
        ValueSize.UINT16);

    assertThat(nesting.depth()).isEqualTo(4);
    assertThat(nesting.holdsRequest()).isTrue();
    assertThat(nesting.innerLength()).isEqualTo(QUERY_EV.length);
    assertThat(nesting.innerStart()).isEqualTo(payload.length - QUERY_EV.length);
  }
}
