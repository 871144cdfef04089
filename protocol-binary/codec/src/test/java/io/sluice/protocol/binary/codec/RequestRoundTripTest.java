package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.encoded;
import static io.sluice.protocol.binary.codec.CodecTestKit.hexOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;
import io.sluice.protocol.binary.codec.SpecVectors.Vector;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The encoder is the exact inverse of the decoder: clients and tests write what the server reads. */
class RequestRoundTripTest {

  static Stream<Vector> everyVector() {
    return SpecVectors.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyVector")
  void encodingTheDecodedRequestGivesBackTheInputBytes(Vector vector) {
    List<Request> decoded = new RecordingDecoder(vector.size()).feedWhole(vector.wire()).requests();
    assertThat(decoded).hasSize(1);

    assertThat(hexOf(encoded(vector.size(), decoded.get(0)))).isEqualTo(hexOf(vector.wire()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyVector")
  void encodingTheExpectedRequestGivesTheSpecBytes(Vector vector) {
    // The same check from the other side: an encoder fed hand-made requests (as a client is) writes the wire bytes.
    assertThat(hexOf(encoded(vector.size(), vector.expected()))).isEqualTo(hexOf(vector.wire()));
  }

  @Test
  void refusesAKeyLongerThanItsOneByteLength() {
    Request tooLong = new Request.Query(new byte[256]);

    assertThatThrownBy(() -> RequestEncoder.encode(Unpooled.buffer(), ValueSize.UINT16, tooLong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("256");
  }
}
