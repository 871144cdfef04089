package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.describe;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static io.sluice.protocol.binary.codec.CodecTestKit.hexOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.CodecTestKit.Feeding;
import io.sluice.protocol.binary.codec.CodecTestKit.RecordingDecoder;
import io.sluice.protocol.binary.codec.CodecTestKit.Wire;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * EVENT (spec §2.12) carries a request in its payload: the inner request is parsed when the payload
 * starts with a whole frame of a known type, and is {@code null} otherwise (the answer is then {@code 01 00}).
 */
class EventDecodingTest {

  @Test
  void parsesRow51InnerInsertAndKeepsTheChannel() {
    Request.Event event = decodeEvent(ValueSize.UINT16, hex("19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76"));

    assertThat(event.channel()).isEqualTo(ascii("chan"));
    assertThat(describe(event.inner())).isEqualTo(describe(new Request.Insert(3, 4, 60, ascii("ev"))));
  }

  @Test
  void parsesRow52InnerQueryWithAnEmptyChannel() {
    Request.Event event = decodeEvent(ValueSize.UINT16, hex("19 00 04 00 02 02 65 76"));

    assertThat(event.channel()).isEmpty();
    assertThat(describe(event.inner())).isEqualTo(describe(new Request.Query(ascii("ev"))));
  }

  @Test
  void hasNoInnerRequestForRow53UnknownInnerType() {
    Request.Event event = decodeEvent(ValueSize.UINT16, hex("19 01 02 00 63 0a 00"));

    assertThat(event.inner()).isNull();
    assertThat(event.payload()).isEqualTo(hex("0a 00"));
  }

  @ParameterizedTest(name = "payload {0}")
  @ValueSource(strings = {
      "",                        // empty payload
      "01 03 00 04",             // INSERT header cut short
      "01 03 00 04 3c 00 05 65", // INSERT whose key runs past the payload
      "02 05 61 62",             // QUERY whose key runs past the payload
      "13 01 05 00 2a 68",       // PUBLISH whose payload runs past the EVENT payload
      "15 00 01 02",             // CONNECTION needs 16 ID bytes
      "20",                      // type byte past the table
      "ff 00"})
  void hasNoInnerRequestForATruncatedOrUnknownPayload(String payloadHex) {
    byte[] payload = hex(payloadHex);
    byte[] frame = Wire.of(ValueSize.UINT16).u8(0x19).u8(1).n(payload.length).ascii("c").raw(payload).bytes();

    Request.Event event = decodeEvent(ValueSize.UINT16, frame);

    assertThat(event.inner()).isNull();
    assertThat(hexOf(event.payload())).isEqualTo(hexOf(payload));
  }

  @Test
  void ignoresPayloadBytesAfterTheInnerRequest() {
    Request.Event event = decodeEvent(ValueSize.UINT16, hex("19 00 07 00 02 02 65 76 ff ff 18"));

    assertThat(describe(event.inner())).isEqualTo(describe(new Request.Query(ascii("ev"))));
    assertThat(event.payload()).isEqualTo(hex("02 02 65 76 ff ff 18"));
  }

  @Test
  void parsesAOneByteInnerRequest() {
    Request.Event event = decodeEvent(ValueSize.UINT16, hex("19 00 01 00 18"));

    assertThat(event.inner()).isEqualTo(Request.Bare.WHOAMI);
  }

  @Test
  void parsesAnEventNestedInAnEvent() {
    // A worker that relays a push it received as an EVENT wraps it again; each level parses.
    Request.Event event = decodeEvent(ValueSize.UINT16, hex("19 00 08 00 19 00 04 00 02 02 65 76"));

    assertThat(event.depth()).isEqualTo(2);
    assertThat(event.innerType()).isEqualTo(RequestType.QUERY.code());
    assertThat(describe(event.inner())).isEqualTo(describe(new Request.Query(ascii("ev"))));
  }

  @Test
  void doesNotLetAHugeInnerLengthEscapeThePayload() {
    // An inner uint64 SET announcing 2^63 value bytes is simply not a whole frame.
    byte[] innerSet = hex("05 04 3c00000000000000 01 0000000000000080 6b");
    byte[] frame = Wire.of(ValueSize.UINT64).u8(0x19).u8(0).n(innerSet.length).raw(innerSet).bytes();

    assertThat(decodeEvent(ValueSize.UINT64, frame).inner()).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(ValueSize.class)
  void parsesInnerRequestsWithTheConnectionsValueSize(ValueSize size) {
    byte[] innerSet = Wire.of(size).u8(0x05).u8(0x04).n(30).u8(1).n(4).ascii("k").ascii("EHLO").bytes();
    byte[] frame = Wire.of(size).u8(0x19).u8(2).n(innerSet.length + 2).ascii("ch").raw(innerSet).raw(hex("00 00")).bytes();

    Request.Event event = decodeEvent(size, frame);

    assertThat(describe(event.inner())).isEqualTo(describe(new Request.Set(4, 30, ascii("k"), ascii("EHLO"))));
  }

  @Test
  void parsesTheSameEventWhateverTheReadSplits() {
    byte[] row51 = hex("19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76");
    String whole = describe(decodeEvent(ValueSize.UINT16, row51));

    for (Feeding feeding : Feeding.all()) {
      List<Request> requests = new RecordingDecoder(ValueSize.UINT16).feed(feeding, row51).requests();
      assertThat(describe(requests.get(0))).as("fed %s", feeding).isEqualTo(whole);
    }
  }

  private static Request.Event decodeEvent(ValueSize size, byte[] frame) {
    RecordingDecoder decoder = new RecordingDecoder(size).feedWhole(frame);
    assertThat(decoder.errors()).isEmpty();
    assertThat(decoder.requests()).singleElement().isInstanceOf(Request.Event.class);
    return (Request.Event) decoder.requests().get(0);
  }
}
