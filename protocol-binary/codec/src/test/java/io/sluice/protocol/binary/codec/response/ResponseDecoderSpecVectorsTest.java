package io.sluice.protocol.binary.codec.response;

import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.sluice.protocol.binary.codec.response.Bytes.ascii;
import static io.sluice.protocol.binary.codec.response.Bytes.concat;
import static io.sluice.protocol.binary.codec.response.Bytes.hex;
import static io.sluice.protocol.binary.codec.response.Bytes.sequence;
import static io.sluice.protocol.binary.codec.response.Bytes.u64;
import static org.assertj.core.api.Assertions.assertThat;

/** The uint16 replies of spec §9, each decoded whole, one byte at a time and in random chunks. */
class ResponseDecoderSpecVectorsTest {

  private static final ValueSize N2 = ValueSize.UINT16;

  static Stream<Feeding> feedings() {
    return Feeding.all();
  }

  private static <T extends Response> T decodeOne(RequestType type, byte[] reply, Feeding feeding, Class<T> kind) {
    return DecoderRun.decodeOne(N2, decoder -> decoder.expect(type), reply, feeding, kind);
  }

  private static void assertStatus(RequestType type, String reply, boolean ok, Feeding feeding) {
    assertThat(decodeOne(type, hex(reply), feeding, Response.Status.class).ok()).isEqualTo(ok);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void statusRepliesRows1To8And24And37And39(Feeding feeding) {
    assertStatus(RequestType.INSERT, "01", true, feeding);
    assertStatus(RequestType.INSERT, "00", false, feeding);
    assertStatus(RequestType.UPDATE, "01", true, feeding);
    assertStatus(RequestType.UPDATE, "00", false, feeding);
    assertStatus(RequestType.PURGE, "00", false, feeding);
    assertStatus(RequestType.SET, "01", true, feeding);
    assertStatus(RequestType.SUBSCRIBE, "01", true, feeding);
    assertStatus(RequestType.UNSUBSCRIBE, "00", false, feeding);
    assertStatus(RequestType.PUBLISH, "00", false, feeding);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void failuresOfRichRepliesAreOneByteRows4And26And45And47(Feeding feeding) {
    for (RequestType type : new RequestType[] {RequestType.QUERY, RequestType.GET, RequestType.STAT,
        RequestType.CONNECTION, RequestType.CHANNEL}) {
      assertStatus(type, "00", false, feeding);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void queryRow3(Feeding feeding) {
    Response.QueryResult result = decodeOne(RequestType.QUERY, hex("01 0a 00 04 3b 00"), feeding,
        Response.QueryResult.class);
    assertThat(result.quota()).isEqualTo(10);
    assertThat(result.ttlType()).isEqualTo(0x04);
    assertThat(result.ttlUnit()).isEqualTo(TtlUnit.SECONDS);
    assertThat(result.ttl()).isEqualTo(59);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void queryOnABufferRow18AndWrappedTtlRow57(Feeding feeding) {
    Response.QueryResult onBuffer = decodeOne(RequestType.QUERY, hex("01 00 00 05 3b 00"), feeding,
        Response.QueryResult.class);
    assertThat(onBuffer.quota()).isZero();
    assertThat(onBuffer.ttlUnit()).isEqualTo(TtlUnit.MINUTES);
    Response.QueryResult wrapped = decodeOne(RequestType.QUERY, hex("01 01 00 04 cf 01"), feeding,
        Response.QueryResult.class);
    assertThat(wrapped.ttl()).isEqualTo(463);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void queryWithTtlTypeOutsideTheUnitsRow30(Feeding feeding) {
    Response.QueryResult result = decodeOne(RequestType.QUERY, hex("01 03 00 00 01 00"), feeding,
        Response.QueryResult.class);
    assertThat(result.ttlType()).isZero();
    assertThat(result.ttlUnit()).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void getRows16And17(Feeding feeding) {
    Response.GetResult ehlo = decodeOne(RequestType.GET, hex("01 04 1d 00 04 00 45 48 4c 4f"), feeding,
        Response.GetResult.class);
    assertThat(ehlo.ttlUnit()).isEqualTo(TtlUnit.SECONDS);
    assertThat(ehlo.ttl()).isEqualTo(29);
    assertThat(ehlo.value()).isEqualTo(ascii("EHLO"));
    Response.GetResult hello = decodeOne(RequestType.GET, hex("01 05 3b 00 06 00 48 45 4c 4c 4f 21"), feeding,
        Response.GetResult.class);
    assertThat(hello.ttlType()).isEqualTo(0x05);
    assertThat(hello.ttl()).isEqualTo(59);
    assertThat(hello.value()).isEqualTo(ascii("HELLO!"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void getOnACounterHasAnEmptyValueRow19(Feeding feeding) {
    Response.GetResult result = decodeOne(RequestType.GET, hex("01 04 19 00 00 00"), feeding,
        Response.GetResult.class);
    assertThat(result.ttl()).isEqualTo(25);
    assertThat(result.value()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void statRow25AndAfterATick(Feeding feeding) {
    Response.StatResult fresh = decodeOne(RequestType.STAT, hex("01 00*32"), feeding, Response.StatResult.class);
    assertThat(new long[] {fresh.readsPerMinute(), fresh.writesPerMinute(), fresh.totalReads(), fresh.totalWrites()})
        .containsOnly(0);
    // §5: (7, 3, 7, 3) after the minute tick
    byte[] ticked = concat(hex("01"), u64(7), u64(3), u64(7), u64(3));
    Response.StatResult stat = decodeOne(RequestType.STAT, ticked, feeding, Response.StatResult.class);
    assertThat(stat.readsPerMinute()).isEqualTo(7);
    assertThat(stat.writesPerMinute()).isEqualTo(3);
    assertThat(stat.totalReads()).isEqualTo(7);
    assertThat(stat.totalWrites()).isEqualTo(3);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void whoamiRow27(Feeding feeding) {
    byte[] id = sequence(0xa0, 16);
    Response.WhoAmI whoami = decodeOne(RequestType.WHOAMI, concat(hex("01"), id), feeding, Response.WhoAmI.class);
    assertThat(whoami.id()).isEqualTo(id);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void fourPipelinedRepliesRow33(Feeding feeding) {
    DecoderRun run = DecoderRun.decode(N2, expect(RequestType.INSERT, RequestType.INSERT, RequestType.QUERY,
        RequestType.PURGE), hex("01 01 01 01 00 04 3b 00 01"), feeding);
    assertThat(run.errors).isEmpty();
    assertThat(run.messages).extracting(message -> ByteBufUtil.hexDump(message.raw()))
        .containsExactly("01", "01", "010100043b00", "01");
    assertThat(run.messages).extracting(message -> message.getClass().getSimpleName())
        .containsExactly("Status", "Status", "QueryResult", "Status");
    assertThat(run.decoder.expectedCount()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void publisherSubscribedTwiceGetsBothPushesBeforeItsStatusRow38(Feeding feeding) {
    byte[] push = hex("19 04 02 00 6e 65 77 73 42 43");
    DecoderRun run = DecoderRun.decode(N2, expect(RequestType.PUBLISH), concat(push, push, hex("01")), feeding);
    assertThat(run.errors).isEmpty();
    assertThat(run.messages).hasSize(3);
    for (Response message : run.messages.subList(0, 2)) {
      Response.Push received = (Response.Push) message;
      assertThat(received.channel()).isEqualTo(ascii("news"));
      assertThat(received.payload()).isEqualTo(hex("42 43"));
      assertThat(received.raw()).isEqualTo(push);
    }
    assertThat(((Response.Status) run.messages.get(2)).ok()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void broadcastEchoesToThePublisherBeforeItsStatusRow40(Feeding feeding) {
    DecoderRun run = DecoderRun.decode(N2, expect(RequestType.PUBLISH), hex("19 01 03 00 2a 61 6c 6c 01"), feeding);
    assertThat(run.errors).isEmpty();
    assertThat(run.messages).hasSize(2);
    Response.Push push = (Response.Push) run.messages.get(0);
    assertThat(push.channel()).isEqualTo(ascii("*"));
    assertThat(push.payload()).isEqualTo(ascii("all"));
    assertThat(push.raw()).isEqualTo(hex("19 01 03 00 2a 61 6c 6c"));
    assertThat(run.messages.get(1)).isInstanceOf(Response.Status.class);
    assertThat(run.messages.get(1).raw()).isEqualTo(hex("01"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void pushToAnIdChannelNeedsNoRequestRow41(Feeding feeding) {
    byte[] channel = ascii("0123456789abcdef0123456789abcdef");
    byte[] push = concat(hex("19 20 02 00"), channel, hex("68 69"));
    DecoderRun run = DecoderRun.decode(N2, decoder -> { }, push, feeding);
    assertThat(run.errors).isEmpty();
    assertThat(run.messages).singleElement().isInstanceOfSatisfying(Response.Push.class, received -> {
      assertThat(received.channel()).isEqualTo(channel);
      assertThat(received.payload()).isEqualTo(ascii("hi"));
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void channelWithOneSubscriberRow43(Feeding feeding) {
    byte[] subscriberId = sequence(0xb0, 16);
    long subscribedAt = 1_750_000_000_123_456_789L;
    byte[] reply = concat(hex("01 01 00*7"), subscriberId, u64(subscribedAt), hex("02 00*7 00*8"));
    Response.ChannelSubscribers channel = decodeOne(RequestType.CHANNEL, reply, feeding,
        Response.ChannelSubscribers.class);
    assertThat(channel.subscribers()).singleElement().satisfies(subscriber -> {
      assertThat(subscriber.connectionId()).isEqualTo(subscriberId);
      assertThat(subscriber.subscribedAtNanos()).isEqualTo(subscribedAt);
      assertThat(subscriber.readBytes()).isEqualTo(2);
      assertThat(subscriber.writeBytes()).isZero();
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void connectionForOwnIdRow46(Feeding feeding) {
    long[] counts = new long[32];
    counts[RequestType.WHOAMI.code()] = 1;
    counts[RequestType.CONNECTION.code()] = 1;
    ConnectionItem own = new ConnectionItem(sequence(0x10, 16), ConnectionItem.TYPE_CLIENT, ConnectionItem.KIND_TCP,
        "127.0.0.1", 54321, 1_750_000_000_000_000_000L, 18, 17, 0, 0, counts);
    ByteBuf encoded = Unpooled.buffer();
    Responses.connection(encoded, own);
    byte[] reply = ByteBufUtil.getBytes(encoded);
    assertThat(reply).hasSize(238);

    Response.Connection connection = decodeOne(RequestType.CONNECTION, reply, feeding, Response.Connection.class);
    ConnectionItem item = connection.item();
    assertThat(item).usingRecursiveComparison().isEqualTo(own);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void infoRow50(Feeding feeding) {
    // Every u64 field holds its own offset, so a field read from the wrong place shows at once.
    byte[] reply = new byte[Responses.INFO_LENGTH];
    reply[0] = 0x01;
    ByteBuf fields = Unpooled.wrappedBuffer(reply).writerIndex(1);
    for (int offset = 1; offset < 417; offset += 8) {
      fields.writeLongLE(offset);
    }
    fields.writeBytes(hex("35 2e 30 2e 31 31 00*10"));

    Response.Info info = decodeOne(RequestType.INFO, reply, feeding, Response.Info.class);
    assertThat(info.figures().timestampSeconds()).isEqualTo(1);
    assertThat(info.totalRequests()).isEqualTo(9);
    assertThat(info.totalRequestsPerMinute()).isEqualTo(17);
    assertThat(info.requestTotal(RequestType.INSERT)).isEqualTo(25);
    assertThat(info.requestsPerMinute(RequestType.INSERT)).isEqualTo(33);
    assertThat(info.requestTotal(RequestType.GET)).isEqualTo(89);
    assertThat(info.requestsPerMinute(RequestType.SET)).isEqualTo(113);
    assertThat(info.requestTotal(RequestType.STATS)).isEqualTo(153);
    assertThat(info.requestTotal(RequestType.STAT)).isEqualTo(169);
    assertThat(info.requestTotal(RequestType.CHANNEL)).isEqualTo(233);
    assertThat(info.requestTotal(RequestType.WHOAMI)).isEqualTo(265);
    assertThat(info.requestTotal(RequestType.CONNECTIONS)).isEqualTo(297);
    assertThat(info.requestsPerMinute(RequestType.CONNECTIONS)).isEqualTo(305);
    assertThat(info.requestTotal(RequestType.EVENT)).as("INFO has no EVENT pair").isZero();
    assertThat(info.figures().readBytes()).isEqualTo(313);
    assertThat(info.figures().readBytesPerMinute()).isEqualTo(321);
    assertThat(info.figures().writeBytes()).isEqualTo(329);
    assertThat(info.figures().writeBytesPerMinute()).isEqualTo(337);
    assertThat(info.figures().totalKeys()).isEqualTo(345);
    assertThat(info.figures().totalCounters()).isEqualTo(353);
    assertThat(info.figures().totalBuffers()).isEqualTo(361);
    assertThat(info.figures().allocatedCounterBytes()).isEqualTo(369);
    assertThat(info.figures().allocatedBufferBytes()).isEqualTo(377);
    assertThat(info.figures().totalSubscriptions()).isEqualTo(385);
    assertThat(info.figures().totalChannels()).isEqualTo(393);
    assertThat(info.figures().runningSinceNanos()).isEqualTo(401);
    assertThat(info.figures().totalConnections()).isEqualTo(409);
    assertThat(info.figures().version()).isEqualTo("5.0.11");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void eventWrappingInsertRow51(Feeding feeding) {
    Request.Event event = new Request.Event(ascii("chan"), hex("01 03 00 04 3c 00 02 65 76"), null);
    Response.EventResult result = DecoderRun.decodeOne(N2, decoder -> decoder.expect(event), hex("01 01"), feeding,
        Response.EventResult.class);
    assertThat(result.inner()).isInstanceOfSatisfying(Response.Status.class, inner -> {
      assertThat(inner.ok()).isTrue();
      assertThat(inner.raw()).isEqualTo(hex("01"));
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void eventWrappingQueryRow52(Feeding feeding) {
    Response.EventResult result = DecoderRun.decodeOne(N2, decoder -> decoder.expectEvent(RequestType.QUERY),
        hex("01 01 03 00 04 3b 00"), feeding, Response.EventResult.class);
    assertThat(result.inner()).isInstanceOfSatisfying(Response.QueryResult.class, inner -> {
      assertThat(inner.quota()).isEqualTo(3);
      assertThat(inner.ttl()).isEqualTo(59);
      assertThat(inner.raw()).isEqualTo(hex("01 03 00 04 3b 00"));
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void eventWrappingAnUnknownTypeRow53(Feeding feeding) {
    Request.Event event = new Request.Event(ascii("c"), hex("0a 00"), null);
    Response.EventResult result = DecoderRun.decodeOne(N2, decoder -> decoder.expect(event), hex("01 00"), feeding,
        Response.EventResult.class);
    assertThat(result.inner()).isInstanceOfSatisfying(Response.Status.class, inner -> assertThat(inner.ok()).isFalse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void eventInsideAnEventRepliesOneStatusPerLevel(Feeding feeding) {
    // §2.12: the EVENT handler writes 01 and then runs its payload, whatever type that is.
    Request.Event event = new Request.Event(ascii(""), hex("19 00 04 00 02 02 65 76"), null);
    Response.EventResult outer = DecoderRun.decodeOne(N2, decoder -> decoder.expect(event),
        hex("01 01 01 03 00 04 3b 00"), feeding, Response.EventResult.class);
    Response.EventResult inner = (Response.EventResult) outer.inner();
    assertThat(inner.inner()).isInstanceOfSatisfying(Response.QueryResult.class,
        query -> assertThat(query.quota()).isEqualTo(3));
  }

  static Consumer<ResponseDecoder> expect(RequestType... types) {
    return decoder -> {
      for (RequestType type : types) {
        decoder.expect(type);
      }
    };
  }
}
