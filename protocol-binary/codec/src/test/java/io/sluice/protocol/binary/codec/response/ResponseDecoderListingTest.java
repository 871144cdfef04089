package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.ValueSize;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.sluice.protocol.binary.codec.response.Bytes.ascii;
import static io.sluice.protocol.binary.codec.response.Bytes.concat;
import static io.sluice.protocol.binary.codec.response.Bytes.hex;
import static io.sluice.protocol.binary.codec.response.Bytes.sequence;
import static io.sluice.protocol.binary.codec.response.Bytes.u64;
import static io.sluice.protocol.binary.codec.response.Bytes.zeros;
import static org.assertj.core.api.Assertions.assertThat;

/** The fragmented listings of spec §3: the decoder must walk every fragment to find the end. */
class ResponseDecoderListingTest {

  private static final ValueSize N2 = ValueSize.UINT16;
  private static final long EXPIRY_BUF = 0x18ea52467a40aa9cL;
  private static final long EXPIRY_H = 0x18ea584823e25b85L;

  static Stream<Feeding> feedings() {
    return Feeding.all();
  }

  private static <T extends Response> T decodeOne(RequestType type, byte[] reply, Feeding feeding, Class<T> kind) {
    return DecoderRun.decodeOne(N2, decoder -> decoder.expect(type), reply, feeding, kind);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void emptyListAndStatsRow49(Feeding feeding) {
    assertThat(decodeOne(RequestType.LIST, hex("01 00*8"), feeding, Response.KeyList.class).keys()).isEmpty();
    assertThat(decodeOne(RequestType.STATS, hex("01 00*8"), feeding, Response.KeyStatsList.class).keys()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void listOfABufferAndACounterSection3_1(Feeding feeding) {
    byte[] reply = hex("01 01 00*7 01 00*7 02 00*7"
        + " 03 01 05 9c aa 40 7a 46 52 ea 18 06 00"
        + " 01 00 06 85 5b e2 23 48 58 ea 18 02 00"
        + " 62 75 66 68");
    Response.KeyList list = decodeOne(RequestType.LIST, reply, feeding, Response.KeyList.class);
    assertThat(list.fragments()).isEqualTo(1);
    assertThat(list.keys()).hasSize(2);
    assertKeyItem(list.keys().get(0), "buf", Listing.KeyItem.TYPE_BUFFER, 0x05, EXPIRY_BUF, 6);
    assertKeyItem(list.keys().get(1), "h", Listing.KeyItem.TYPE_COUNTER, 0x06, EXPIRY_H, 2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void listInThreeFragmentsFollowedByAnotherReply(Feeding feeding) {
    byte[] reply = concat(hex("01 03 00*7"),
        hex("01 00*7 02 00*7"), keyHeader(3, 0, 4, 100, 2), keyHeader(2, 1, 5, 200, 40), ascii("onetw"),
        hex("02 00*7 01 00*7"), keyHeader(0, 0, 3, 300, 2), ascii(""),
        hex("03 00*7 03 00*7"), keyHeader(1, 1, 6, 400, 0), keyHeader(4, 0, 4, 500, 2),
        keyHeader(5, 0, 1, 600, 2), ascii("xyyyyzzzzz"));
    DecoderRun run = DecoderRun.decode(N2, ResponseDecoderSpecVectorsTest.expect(RequestType.LIST, RequestType.INSERT),
        concat(reply, hex("01")), feeding);

    assertThat(run.errors).isEmpty();
    assertThat(run.messages).hasSize(2);
    Response.KeyList list = (Response.KeyList) run.messages.get(0);
    assertThat(list.raw()).isEqualTo(reply);
    assertThat(list.fragments()).isEqualTo(3);
    assertThat(list.keys()).extracting(item -> new String(item.key(), StandardCharsets.US_ASCII))
        .containsExactly("one", "tw", "", "x", "yyyy", "zzzzz");
    assertKeyItem(list.keys().get(1), "tw", Listing.KeyItem.TYPE_BUFFER, 5, 200, 40);
    assertKeyItem(list.keys().get(2), "", Listing.KeyItem.TYPE_COUNTER, 3, 300, 2);
    assertKeyItem(list.keys().get(5), "zzzzz", Listing.KeyItem.TYPE_COUNTER, 1, 600, 2);
    assertThat(run.messages.get(1)).isInstanceOf(Response.Status.class);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void listAsTheServerEncoderCutsTwoHundredKeys(Feeding feeding) {
    List<Listing.KeyItem> keys = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      keys.add(new Listing.KeyItem(ascii(String.format("key-%06d", i)), Listing.KeyItem.TYPE_COUNTER, 4, i, 2));
    }
    byte[] reply = encode(out -> Listing.write(out, keys, Listing.keys(N2)));

    Response.KeyList list = decodeOne(RequestType.LIST, reply, feeding, Response.KeyList.class);
    assertThat(list.fragments()).as("spec §3.1: 97 / 97 / 6").isEqualTo(3);
    assertThat(list.keys()).extracting(ResponseDecoderListingTest::describe)
        .containsExactlyElementsOf(keys.stream().map(ResponseDecoderListingTest::describe).toList());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void statsInTwoFragments(Feeding feeding) {
    byte[] reply = concat(hex("01 02 00*7"),
        hex("01 00*7 01 00*7"), hex("03"), u64(7), u64(3), u64(70), u64(30), ascii("abc"),
        hex("02 00*7 01 00*7"), hex("01"), u64(1), u64(2), u64(10), u64(20), ascii("k"));
    Response.KeyStatsList stats = decodeOne(RequestType.STATS, reply, feeding, Response.KeyStatsList.class);
    assertThat(stats.fragments()).isEqualTo(2);
    assertThat(stats.keys()).hasSize(2);
    Listing.KeyStatsItem abc = stats.keys().get(0);
    assertThat(abc.key()).isEqualTo(ascii("abc"));
    assertThat(new long[] {abc.readsPerMinute(), abc.writesPerMinute(), abc.totalReads(), abc.totalWrites()})
        .containsExactly(7, 3, 70, 30);
    assertThat(stats.keys().get(1).key()).isEqualTo(ascii("k"));
    assertThat(stats.keys().get(1).totalWrites()).isEqualTo(20);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void connectionsWithOneFreshConnectionRow44(Feeding feeding) {
    byte[] id = sequence(0x40, 16);
    long connectedAt = 1_750_000_000_987_654_321L;
    byte[] counters = concat(u64(0), u64(0), u64(0), u64(0), u64(0), u64(0), u64(1), u64(0), u64(0), u64(1),
        u64(1), u64(0), u64(1), u64(1), u64(0), u64(1), u64(1), u64(1));
    byte[] reply = concat(hex("01 01 00*7 01 00*7 01 00*7"), id, hex("00 00 04"), ascii("127.0.0.1"), hex("00*7"),
        hex("39 30"), u64(connectedAt), hex("11 00*7 c2 00*7"), zeros(32), counters);
    assertThat(reply).hasSize(262);

    Response.ConnectionList connections = decodeOne(RequestType.CONNECTIONS, reply, feeding,
        Response.ConnectionList.class);
    assertThat(connections.connections()).singleElement().satisfies(item -> {
      assertThat(item.id()).isEqualTo(id);
      assertThat(item.type()).isEqualTo(ConnectionItem.TYPE_CLIENT);
      assertThat(item.kind()).isEqualTo(ConnectionItem.KIND_TCP);
      assertThat(item.ip()).isEqualTo("127.0.0.1");
      assertThat(item.port()).isEqualTo(12345);
      assertThat(item.connectedAtNanos()).isEqualTo(connectedAt);
      assertThat(item.readBytes()).isEqualTo(0x11);
      assertThat(item.writeBytes()).isEqualTo(0xc2);
      assertThat(item.publishedBytes()).isZero();
      assertThat(item.receivedBytes()).isZero();
      long[] counts = item.requestCounts();
      assertThat(counts[RequestType.LIST.code()]).isEqualTo(1);
      assertThat(counts[RequestType.STATS.code()]).isEqualTo(1);
      assertThat(counts[RequestType.PUBLISH.code()]).isEqualTo(1);
      assertThat(counts[RequestType.UNSUBSCRIBE.code()]).isEqualTo(1);
      assertThat(counts[RequestType.CONNECTIONS.code()]).isEqualTo(1);
      assertThat(counts[RequestType.CHANNELS.code()]).isEqualTo(1);
      assertThat(counts[RequestType.CHANNEL.code()]).isEqualTo(1);
      assertThat(counts[RequestType.WHOAMI.code()]).isEqualTo(1);
      assertThat(counts[RequestType.SUBSCRIBE.code()]).isZero();
      assertThat(counts[RequestType.INFO.code()]).isZero();
      assertThat(counts[RequestType.CONNECTION.code()]).isZero();
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void tenConnectionsComeInFragmentsOfEightAndTwo(Feeding feeding) {
    List<ConnectionItem> items = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      long[] counts = new long[32];
      counts[RequestType.INSERT.code()] = i;
      items.add(new ConnectionItem(sequence(i * 16, 16), ConnectionItem.TYPE_CLIENT, ConnectionItem.KIND_TCP,
          "10.0.0." + i, 40000 + i, 1000L + i, i, 2L * i, 0, 0, counts));
    }
    byte[] reply = encode(out -> Listing.write(out, items, Listing.CONNECTIONS));

    Response.ConnectionList connections = decodeOne(RequestType.CONNECTIONS, reply, feeding,
        Response.ConnectionList.class);
    assertThat(connections.fragments()).isEqualTo(2);
    assertThat(connections.connections()).usingRecursiveFieldByFieldElementComparator()
        .containsExactlyElementsOf(items);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void channelsOnAFreshConnectionRow48(Feeding feeding) {
    String ownId = "fdc473c1476f4f4a9811fb503983529f";
    byte[] reply = concat(hex("01 01 00*7 01 00*7 02 00*7"),
        hex("01 00*16 01 00*7"), hex("20 00*16 01 00*7"), ascii("*"), ascii(ownId));
    assertThat(reply).hasSize(108);

    Response.ChannelList channels = decodeOne(RequestType.CHANNELS, reply, feeding, Response.ChannelList.class);
    assertThat(channels.channels()).extracting(item -> new String(item.channel(), StandardCharsets.US_ASCII))
        .containsExactly("*", ownId);
    assertThat(channels.channels()).allSatisfy(item -> {
      assertThat(item.subscriptions()).isEqualTo(1);
      assertThat(item.readBytes()).isZero();
      assertThat(item.writeBytes()).isZero();
    });
  }

  /** A LIST item header for uint16: {@code K | key type | ttl type | expires_at:u64 | bytes used:v2}. */
  private static byte[] keyHeader(int keyLength, int keyType, int ttlType, long expiresAt, int bytesUsed) {
    return concat(new byte[] {(byte) keyLength, (byte) keyType, (byte) ttlType}, u64(expiresAt),
        new byte[] {(byte) bytesUsed, (byte) (bytesUsed >> 8)});
  }

  private static void assertKeyItem(Listing.KeyItem item, String key, int keyType, int ttlType, long expiresAt,
      long bytesUsed) {
    assertThat(item.key()).isEqualTo(ascii(key));
    assertThat(item.keyType()).isEqualTo(keyType);
    assertThat(item.ttlType()).isEqualTo(ttlType);
    assertThat(item.expiresAtNanos()).isEqualTo(expiresAt);
    assertThat(item.bytesUsed()).isEqualTo(bytesUsed);
  }

  private static String describe(Listing.KeyItem item) {
    return new String(item.key(), StandardCharsets.US_ASCII) + " type " + item.keyType() + " ttl type "
        + item.ttlType() + " expires " + item.expiresAtNanos() + " bytes " + item.bytesUsed();
  }

  private static byte[] encode(java.util.function.Consumer<ByteBuf> writer) {
    ByteBuf out = Unpooled.buffer();
    writer.accept(out);
    return ByteBufUtil.getBytes(out);
  }
}
