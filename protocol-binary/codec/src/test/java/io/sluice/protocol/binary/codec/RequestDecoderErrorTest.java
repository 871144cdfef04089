package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.MAX_FRAME;
import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.concat;
import static io.sluice.protocol.binary.codec.CodecTestKit.describe;
import static io.sluice.protocol.binary.codec.CodecTestKit.describeAll;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static io.sluice.protocol.binary.codec.CodecTestKit.le;
import static io.sluice.protocol.binary.codec.CodecTestKit.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.CodecTestKit.Feeding;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;
import io.sluice.protocol.binary.codec.CodecTestKit.Wire;

import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Input the decoder cannot go on with (spec §1.6): an unknown type byte or a frame over the limit
 * is reported once, and everything after it is ignored, so the server can close the connection
 * instead of hanging or crashing as the reference does.
 */
class RequestDecoderErrorTest {

  /** WHOAMI then QUERY "abc": two valid frames that must still be delivered before a bad byte. */
  private static final byte[] TWO_VALID_FRAMES = hex("18 02 03 61 62 63");

  static Stream<Integer> unknownTypeBytes() {
    return Stream.of(
        Stream.of(0x00),
        IntStream.rangeClosed(0x0a, 0x0f).boxed(),
        IntStream.rangeClosed(0x1a, 0x1f).boxed(),
        Stream.of(0x20, 0xff)).flatMap(s -> s);
  }

  static Stream<Arguments> unknownTypeBytesWithEveryFeeding() {
    return unknownTypeBytes().flatMap(type -> Feeding.all().stream().map(feeding -> Arguments.of(type, feeding)));
  }

  @ParameterizedTest(name = "type byte {0}, fed {1}")
  @MethodSource("unknownTypeBytesWithEveryFeeding")
  void reportsAnUnknownTypeOnceAfterTheFramesBeforeIt(int type, Feeding feeding) {
    // Valid frames after the bad byte must never come out: the stream has lost its framing.
    byte[] stream = concat(TWO_VALID_FRAMES, new byte[] {(byte) type}, hex("18 02 03 61 62 63 07"));

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feed(feeding, stream);

    assertThat(describeAll(decoder.requests()))
        .containsExactly(describe(Request.Bare.WHOAMI), describe(new Request.Query(ascii("abc"))));
    assertThat(decoder.events()).hasSize(3).last().isInstanceOf(DecodeError.class);
    assertThat(decoder.errors()).singleElement().satisfies(error -> {
      assertThat(error.reason()).isEqualTo(DecodeError.Reason.UNKNOWN_TYPE);
      assertThat(error.message()).contains(String.format("0x%02x", type));
    });
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @ParameterizedTest(name = "type byte {0}")
  @MethodSource("unknownTypeBytes")
  void ignoresEverythingFedAfterAnError(int type) {
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feedWhole(new byte[] {(byte) type});

    decoder.feedWhole(TWO_VALID_FRAMES);
    decoder.feed(Feeding.oneByteAtATime(), TWO_VALID_FRAMES);

    assertThat(decoder.events()).hasSize(1);
    assertThat(decoder.errors()).hasSize(1);
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @ParameterizedTest(name = "fed {0}")
  @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")
  void rejectsRow54UnknownTypeAndTheWhoamiBehindIt(Feeding feeding) {
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feed(feeding, hex("0a 02 01 78 18"));

    assertThat(decoder.requests()).isEmpty();
    assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.UNKNOWN_TYPE);
  }

  @Test
  void rejectsRow55TypeByte0x20WithoutThrowing() {
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feedWhole(hex("20 00 00"));

    assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.UNKNOWN_TYPE);
  }

  // With N = 1 a value is at most 255 bytes, so no uint8 frame can reach the limit.
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ValueSize.class, names = "UINT8", mode = EnumSource.Mode.EXCLUDE)
  void decodesASetFrameOfExactlyTheMaximumSize(ValueSize size) {
    byte[] frame = setFrameOfLength(size, MAX_FRAME);

    RecordingDecoder decoder = new RecordingDecoder(size).feed(Feeding.randomChunks(5), frame);

    assertThat(decoder.errors()).isEmpty();
    assertThat(decoder.requests()).singleElement().isInstanceOfSatisfying(Request.Set.class,
        set -> assertThat(set.value()).hasSize(MAX_FRAME - (3 + 2 * size.bytes()) - 3));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ValueSize.class, names = "UINT8", mode = EnumSource.Mode.EXCLUDE)
  void rejectsASetFrameOneByteOverTheMaximumAsSoonAsItsHeaderIsKnown(ValueSize size) {
    byte[] frame = setFrameOfLength(size, MAX_FRAME + 1);
    int header = 3 + 2 * size.bytes();

    assertTooLargeOnceHeaderIsIn(size, frame, header);
  }

  @Test
  void rejectsRow56SetFrameOf8099BytesAsSoonAsItsHeaderIsKnown() {
    byte[] row56 = concat(hex("05 04 3c 00 03 99 1f 62 69 67"), repeat(0x41, 8089));
    assertThat(row56).hasSize(8099);

    assertTooLargeOnceHeaderIsIn(ValueSize.UINT16, row56, 7);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = ValueSize.class, names = "UINT8", mode = EnumSource.Mode.EXCLUDE)
  void rejectsAPublishFrameOneByteOverTheMaximumAsSoonAsItsHeaderIsKnown(ValueSize size) {
    int header = 2 + size.bytes();
    int payloadLength = MAX_FRAME + 1 - header - 4;
    byte[] frame = Wire.of(size).u8(0x13).u8(4).n(payloadLength).ascii("news").raw(new byte[payloadLength]).bytes();
    assertThat(frame).hasSize(MAX_FRAME + 1);

    assertTooLargeOnceHeaderIsIn(size, frame, header);
  }

  @ParameterizedTest(name = "length field {0} as a signed long")
  @ValueSource(longs = {Long.MIN_VALUE, -1L, Long.MAX_VALUE, 0x8000_0000L, 0xffff_ffffL, 0x1_0000_0000L})
  void rejectsHugeUint64LengthsWithoutThrowing(long unsignedLength) {
    // 2^63 and 2^64 - 1 are negative as Java longs; 2^31 no longer fits an int. None may wrap into a small frame.
    byte[] set = concat(hex("05 04 3c00000000000000 03"), le(unsignedLength, 8), ascii("big"));
    byte[] publish = concat(hex("13 04"), le(unsignedLength, 8), ascii("news"));

    for (byte[] frame : new byte[][] {set, publish}) {
      RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT64).feedWhole(frame);
      assertThat(decoder.requests()).isEmpty();
      assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.FRAME_TOO_LARGE);
      assertThat(decoder.bufferedBytes()).isZero();
    }
  }

  @Test
  void rejectsTheLargestUint32LengthWithoutThrowing() {
    byte[] set = hex("05 04 3c000000 03 ffffffff 62 69 67");

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT32).feedWhole(set);

    assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.FRAME_TOO_LARGE);
  }

  @Test
  void neverHoldsMoreThanOneIncompleteFrameWhenFedByteByByte() {
    // Largest frames the limit allows, with small frames around them, repeated.
    byte[] cycle = concat(setFrameOfLength(ValueSize.UINT16, MAX_FRAME), hex("18 02 03 61 62 63"),
        setFrameOfLength(ValueSize.UINT16, 100));
    byte[] stream = concat(cycle, cycle, cycle);
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16);

    int mostBuffered = 0;
    for (int i = 0; i < stream.length; i++) {
      decoder.feedWhole(new byte[] {stream[i]});
      mostBuffered = Math.max(mostBuffered, decoder.bufferedBytes());
      assertThat(decoder.bufferedBytes()).as("after byte %d", i).isLessThanOrEqualTo(MAX_FRAME);
    }

    // The largest frame, one byte short of complete, is the most ever held.
    assertThat(mostBuffered).isEqualTo(MAX_FRAME - 1);
    assertThat(decoder.requests()).hasSize(12);
    assertThat(decoder.errors()).isEmpty();
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @Test
  void honoursASmallerMaximumFrameSize() {
    // The limit is a parameter (a WebSocket bridge may use its own): 10 bytes fit, 11 do not.
    byte[] tenBytes = hex("05 04 3c 00 03 00 00 6b 65 79");
    byte[] elevenBytes = hex("05 04 3c 00 03 01 00 6b 65 79 21");

    assertThat(new RecordingDecoder(ValueSize.UINT16, 10).feedWhole(tenBytes).requests()).hasSize(1);
    assertThat(new RecordingDecoder(ValueSize.UINT16, 10).feedWhole(elevenBytes).errors())
        .extracting(DecodeError::reason).containsExactly(DecodeError.Reason.FRAME_TOO_LARGE);
  }

  /** Feeds a too-large frame byte by byte: the error must come with the last header byte, not with the body. */
  private static void assertTooLargeOnceHeaderIsIn(ValueSize size, byte[] frame, int headerLength) {
    RecordingDecoder decoder = new RecordingDecoder(size);

    decoder.feed(Feeding.oneByteAtATime(), Arrays.copyOf(frame, headerLength - 1));
    assertThat(decoder.events()).isEmpty();

    decoder.feedWhole(new byte[] {frame[headerLength - 1]});
    assertThat(decoder.errors()).extracting(DecodeError::reason).containsExactly(DecodeError.Reason.FRAME_TOO_LARGE);
    assertThat(decoder.bufferedBytes()).isZero();

    decoder.feedWhole(Arrays.copyOfRange(frame, headerLength, frame.length));
    assertThat(decoder.events()).hasSize(1);
  }

  /** A SET with a 3-byte key whose value fills the frame up to {@code length} bytes in all. */
  private static byte[] setFrameOfLength(ValueSize size, int length) {
    int valueLength = length - (3 + 2 * size.bytes()) - 3;
    return Wire.of(size).u8(0x05).u8(0x04).n(60).u8(3).n(valueLength).ascii("big").raw(repeat(0x41, valueLength)).bytes();
  }
}
