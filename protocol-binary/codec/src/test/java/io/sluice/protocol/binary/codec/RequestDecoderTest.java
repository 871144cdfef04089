package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.concat;
import static io.sluice.protocol.binary.codec.CodecTestKit.describe;
import static io.sluice.protocol.binary.codec.CodecTestKit.describeAll;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.CodecTestKit.Feeding;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;
import io.sluice.protocol.binary.codec.SpecVectors.Vector;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Valid request streams decode to the right requests, in order, however the socket splits them. */
class RequestDecoderTest {

  static Stream<Arguments> everyVectorWithEveryFeeding() {
    return SpecVectors.all().stream()
        .flatMap(vector -> Feeding.all().stream().map(feeding -> Arguments.of(vector, feeding)));
  }

  static Stream<Arguments> everySizeWithEveryFeeding() {
    return Stream.of(ValueSize.values())
        .flatMap(size -> Feeding.all().stream().map(feeding -> Arguments.of(size, feeding)));
  }

  static Stream<Vector> everyVector() {
    return SpecVectors.all().stream();
  }

  @ParameterizedTest(name = "{0}, fed {1}")
  @MethodSource("everyVectorWithEveryFeeding")
  void decodesEachFrameToItsRequest(Vector vector, Feeding feeding) {
    RecordingDecoder decoder = new RecordingDecoder(vector.size()).feed(feeding, vector.wire());

    assertThat(describeAll(decoder.events())).containsExactly(describe(vector.expected()));
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyVector")
  void deliversNothingUntilTheLastByteOfAFrameArrives(Vector vector) {
    RecordingDecoder decoder = new RecordingDecoder(vector.size());
    byte[] allButLast = Arrays.copyOf(vector.wire(), vector.wire().length - 1);

    decoder.feed(Feeding.oneByteAtATime(), allButLast);
    assertThat(decoder.events()).isEmpty();
    assertThat(decoder.bufferedBytes()).isEqualTo(allButLast.length);

    decoder.feed(Feeding.whole(), new byte[] {vector.wire()[vector.wire().length - 1]});
    assertThat(describeAll(decoder.events())).containsExactly(describe(vector.expected()));
  }

  @ParameterizedTest(name = "{0}, fed {1}")
  @MethodSource("everySizeWithEveryFeeding")
  void decodesEveryFrameOfASizePipelinedInOneStream(ValueSize size, Feeding feeding) {
    List<Vector> vectors = SpecVectors.ofSize(size);
    byte[] stream = concat(vectors.stream().map(Vector::wire).toArray(byte[][]::new));

    RecordingDecoder decoder = new RecordingDecoder(size).feed(feeding, stream);

    assertThat(describeAll(decoder.events())).containsExactlyElementsOf(expectedOf(vectors));
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @ParameterizedTest(name = "fed {0}")
  @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")
  void decodesRow33FourPipelinedRequestsInOrder(Feeding feeding) {
    byte[] row33 = hex("01 01 00 04 3c 00 02 70 31 01 01 00 04 3c 00 02 70 32 02 02 70 31 04 02 70 32");

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feed(feeding, row33);

    assertThat(describeAll(decoder.events())).containsExactly(
        describe(new Request.Insert(1, 4, 60, ascii("p1"))),
        describe(new Request.Insert(1, 4, 60, ascii("p2"))),
        describe(new Request.Query(ascii("p1"))),
        describe(new Request.Purge(ascii("p2"))));
  }

  @Test
  void holdsRow34SplitInsertUntilTheRestArrives() {
    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16);

    decoder.feedWhole(hex("01 07 00"));
    assertThat(decoder.events()).isEmpty();
    assertThat(decoder.bufferedBytes()).isEqualTo(3);

    decoder.feedWhole(hex("04 3c 00 05 73 70 6c 69 74"));
    assertThat(describeAll(decoder.events()))
        .containsExactly(describe(new Request.Insert(7, 4, 60, ascii("split"))));
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @ParameterizedTest(name = "fed {0}")
  @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")
  void decodesTenThousandPipelinedFramesInOrder(Feeding feeding) {
    // A seeded random mix of the §9 uint16 frames, so every kind of frame follows every other kind.
    List<Vector> pool = SpecVectors.fromSpec().stream()
        .filter(vector -> vector.size() == ValueSize.UINT16).collect(Collectors.toList());
    Random random = new Random(33);
    List<Vector> picked = new ArrayList<>();
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    for (int i = 0; i < 10_000; i++) {
      Vector vector = pool.get(random.nextInt(pool.size()));
      picked.add(vector);
      stream.writeBytes(vector.wire());
    }

    RecordingDecoder decoder = new RecordingDecoder(ValueSize.UINT16).feed(feeding, stream.toByteArray());

    assertThat(decoder.errors()).isEmpty();
    assertThat(describeAll(decoder.requests())).containsExactlyElementsOf(expectedOf(picked));
    assertThat(decoder.bufferedBytes()).isZero();
  }

  @Test
  void readsN8ValuesAsUnsigned64BitNumbers() {
    // 0xffff_ffff_ffff_fffe is a negative Java long; it must come through bit for bit, not clamped.
    byte[] insert = hex("01 ffffffffffffffff 04 feffffffffffffff 01 6b");

    Request request = new RecordingDecoder(ValueSize.UINT64).feedWhole(insert).requests().get(0);

    assertThat(request).isInstanceOf(Request.Insert.class);
    assertThat(((Request.Insert) request).quota()).isEqualTo(-1L);
    assertThat(Long.toUnsignedString(((Request.Insert) request).ttl())).isEqualTo("18446744073709551614");
  }

  private static List<String> expectedOf(List<Vector> vectors) {
    List<String> expected = new ArrayList<>();
    for (Vector vector : vectors) {
      expected.add(describe(vector.expected()));
    }
    return expected;
  }
}
