package io.sluice.protocol.binary.codec.response;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.ValueSize;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.sluice.protocol.binary.codec.response.Bytes.ascii;
import static io.sluice.protocol.binary.codec.response.Bytes.concat;
import static io.sluice.protocol.binary.codec.response.Bytes.hex;
import static io.sluice.protocol.binary.codec.response.Bytes.u64;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replies whose length depends on N: the uint8 and uint32 rows of spec §9, and uint64 replies
 * built from the layouts (the spec has no uint64 capture).
 */
class ResponseDecoderValueSizeTest {

  private static final long EXPIRY_ABC = 0x18ea52467a40aa9cL;
  private static final long EXPIRY_K = 0x18ea584823e25b85L;

  static Stream<Feeding> feedings() {
    return Feeding.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint8QueryAndGetRowsU8_2AndU8_4(Feeding feeding) {
    assertQuery(ValueSize.UINT8, hex("01 0a 04 3b"), 10, 59, feeding);
    assertQuery(ValueSize.UINT8, hex("01 07 04 3b"), 7, 59, feeding);
    assertGet(ValueSize.UINT8, hex("01 04 1d 04 45 48 4c 4f"), 29, "EHLO", feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint8PushBeforePublishStatusRowU8_5(Feeding feeding) {
    assertPushThenStatus(ValueSize.UINT8, hex("19 01 02 2a 68 69"), feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint8ListRowU8_6(Feeding feeding) {
    byte[] reply = concat(hex("01 01 00*7 01 00*7 02 00*7"),
        hex("03 00 04"), u64(EXPIRY_ABC), hex("01"),
        hex("01 01 04"), u64(EXPIRY_K), hex("04"),
        ascii("abck"));
    assertAbcAndK(ValueSize.UINT8, reply, 1, feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint32QueryAndGetRowsU32_2AndU32_4(Feeding feeding) {
    assertQuery(ValueSize.UINT32, hex("01 0a 00 00 00 04 3b 00 00 00"), 10, 59, feeding);
    assertGet(ValueSize.UINT32, hex("01 04 1d 00 00 00 04 00 00 00 45 48 4c 4f"), 29, "EHLO", feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint32PushBeforePublishStatusRowU32_5(Feeding feeding) {
    assertPushThenStatus(ValueSize.UINT32, hex("19 01 02 00 00 00 2a 68 69"), feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint32ListRowU32_6(Feeding feeding) {
    byte[] reply = concat(hex("01 01 00*7 01 00*7 02 00*7"),
        hex("03 00 04"), u64(EXPIRY_ABC), hex("04 00 00 00"),
        hex("01 01 04"), u64(EXPIRY_K), hex("04 00 00 00"),
        ascii("abck"));
    assertAbcAndK(ValueSize.UINT32, reply, 4, feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint64QueryKeepsTheFullUnsignedRange(Feeding feeding) {
    assertQuery(ValueSize.UINT64, concat(hex("01"), u64(-1), hex("04"), u64(59)), -1, 59, feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void uint64GetPushAndList(Feeding feeding) {
    assertGet(ValueSize.UINT64, concat(hex("01 04"), u64(29), u64(4), ascii("EHLO")), 29, "EHLO", feeding);
    assertPushThenStatus(ValueSize.UINT64, concat(hex("19 01"), u64(2), ascii("*hi")), feeding);
    byte[] list = concat(hex("01 01 00*7 01 00*7 02 00*7"),
        hex("03 00 04"), u64(EXPIRY_ABC), u64(8),
        hex("01 01 04"), u64(EXPIRY_K), u64(4),
        ascii("abck"));
    assertAbcAndK(ValueSize.UINT64, list, 8, feeding);
  }

  private static void assertQuery(ValueSize size, byte[] reply, long quota, long ttl, Feeding feeding) {
    Response.QueryResult query = DecoderRun.decodeOne(size, decoder -> decoder.expect(RequestType.QUERY), reply,
        feeding, Response.QueryResult.class);
    assertThat(query.quota()).isEqualTo(quota);
    assertThat(query.ttlType()).isEqualTo(0x04);
    assertThat(query.ttl()).isEqualTo(ttl);
  }

  private static void assertGet(ValueSize size, byte[] reply, long ttl, String value, Feeding feeding) {
    Response.GetResult get = DecoderRun.decodeOne(size, decoder -> decoder.expect(RequestType.GET), reply, feeding,
        Response.GetResult.class);
    assertThat(get.ttlType()).isEqualTo(0x04);
    assertThat(get.ttl()).isEqualTo(ttl);
    assertThat(get.value()).isEqualTo(ascii(value));
  }

  /** PUBLISH "*" "hi": the publisher's own push comes before its status byte. */
  private static void assertPushThenStatus(ValueSize size, byte[] push, Feeding feeding) {
    DecoderRun run = DecoderRun.decode(size, decoder -> decoder.expect(RequestType.PUBLISH), concat(push, hex("01")),
        feeding);
    assertThat(run.errors).isEmpty();
    assertThat(run.messages).hasSize(2);
    assertThat(run.messages.get(0)).isInstanceOfSatisfying(Response.Push.class, received -> {
      assertThat(received.channel()).isEqualTo(ascii("*"));
      assertThat(received.payload()).isEqualTo(ascii("hi"));
      assertThat(received.raw()).isEqualTo(push);
    });
    assertThat(run.messages.get(1)).isInstanceOfSatisfying(Response.Status.class,
        status -> assertThat(status.ok()).isTrue());
  }

  /** LIST of counter "abc" (seconds) and buffer "k" (seconds, 4 bytes). */
  private static void assertAbcAndK(ValueSize size, byte[] reply, long counterBytes, Feeding feeding) {
    Response.KeyList list = DecoderRun.decodeOne(size, decoder -> decoder.expect(RequestType.LIST), reply, feeding,
        Response.KeyList.class);
    assertThat(list.keys()).hasSize(2);
    Listing.KeyItem abc = list.keys().get(0);
    assertThat(abc.key()).isEqualTo(ascii("abc"));
    assertThat(abc.keyType()).isEqualTo(Listing.KeyItem.TYPE_COUNTER);
    assertThat(abc.expiresAtNanos()).isEqualTo(EXPIRY_ABC);
    assertThat(abc.bytesUsed()).isEqualTo(counterBytes);
    Listing.KeyItem k = list.keys().get(1);
    assertThat(k.key()).isEqualTo(ascii("k"));
    assertThat(k.keyType()).isEqualTo(Listing.KeyItem.TYPE_BUFFER);
    assertThat(k.ttlType()).isEqualTo(0x04);
    assertThat(k.expiresAtNanos()).isEqualTo(EXPIRY_K);
    assertThat(k.bytesUsed()).isEqualTo(4);
  }
}
