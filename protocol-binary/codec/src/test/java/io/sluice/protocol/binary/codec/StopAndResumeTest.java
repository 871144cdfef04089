package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.describeAll;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.CodecTestKit.Feeding;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A handler that holds too much for its client asks the decoder to stop: the rest of the input,
 * and whatever is fed before it resumes, is held back undecoded, then decoded in order.
 */
class StopAndResumeTest {

  /** Row 33's four pipelined requests, then a WHOAMI. */
  private static final byte[] STREAM = hex("01 01 00 04 3c 00 02 70 31 01 01 00 04 3c 00 02 70 32 02 02 70 31 04 02 70 32 18");

  @ParameterizedTest(name = "fed {0}")
  @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")
  void decodesNothingAfterAStopUntilItResumesThenEverythingInOrder(Feeding feeding) {
    List<String> whole = describeAll(new RecordingDecoder(ValueSize.UINT16).feedWhole(STREAM).requests());
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).stopAfter(2);

    decoder.feed(feeding, STREAM);

    assertThat(decoder.requests()).hasSize(2);
    assertThat(decoder.heldBackBytes() + decoder.bufferedBytes()).isEqualTo(STREAM.length - 18);
    decoder.resume();
    assertThat(describeAll(decoder.requests())).isEqualTo(whole);
    assertThat(decoder.heldBackBytes()).isZero();
    assertThat(decoder.bufferedBytes()).isZero();
  }
}
