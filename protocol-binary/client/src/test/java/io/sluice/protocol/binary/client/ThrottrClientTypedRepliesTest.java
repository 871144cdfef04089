package io.sluice.protocol.binary.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.protocol.binary.codec.response.Response;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static io.sluice.protocol.binary.client.ThrottrClientTest.ascii;
import static io.sluice.protocol.binary.client.ThrottrClientTest.hex;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every typed method against a server that answers like the reference: what goes on the wire, and
 * what the caller gets back for a success and for a {@code 00}.
 */
@ExtendWith(VertxExtension.class)
class ThrottrClientTypedRepliesTest {

  private static final ValueSize N2 = ValueSize.UINT16;
  private static final byte[] OWN_ID = ascii("0123456789abcdef");
  private static final String UTF8_KEY = "clé";

  private static final Listing.KeyItem KEY = new Listing.KeyItem(ascii("abc"), Listing.KeyItem.TYPE_COUNTER, 4, 99, 2);
  private static final Listing.KeyStatsItem KEY_STATS = new Listing.KeyStatsItem(ascii("abc"), 7, 3, 70, 30);
  private static final Listing.ChannelItem CHANNEL = new Listing.ChannelItem(ascii("*"), 0, 0, 1);
  private static final SubscriberItem SUBSCRIBER = new SubscriberItem(OWN_ID, 123, 2, 0);
  private static final ConnectionItem CONNECTION = new ConnectionItem(OWN_ID, ConnectionItem.TYPE_CLIENT,
      ConnectionItem.KIND_TCP, "127.0.0.1", 40000, 1_000, 10, 20, 0, 0, new long[32]);

  /** Answers like the reference would for a store holding counter "abc", buffer "buf" and one connection. */
  private static void answer(Request request, FakeThrottrServer.Peer peer) {
    switch (request.type()) {
      case INSERT:
      case PURGE:
      case SET:
      case SUBSCRIBE:
      case UNSUBSCRIBE:
        peer.reply(hex("01"));
        break;
      case UPDATE:
      case PUBLISH:
        peer.reply(hex("00"));
        break;
      case QUERY:
        replyIfKey(peer, request, "abc", out -> Responses.query(out, N2, 10, 4, 59));
        break;
      case GET:
        replyIfKey(peer, request, "buf", out -> Responses.get(out, N2, 4, 29, ascii("EHLO")));
        break;
      case STAT:
        replyIfKey(peer, request, "abc", out -> Responses.stat(out, 7, 3, 70, 30));
        break;
      case LIST:
        peer.reply(encode(out -> Listing.write(out, List.of(KEY), Listing.keys(N2))));
        break;
      case STATS:
        peer.reply(encode(out -> Listing.write(out, List.of(KEY_STATS), Listing.KEY_STATS)));
        break;
      case CHANNELS:
        peer.reply(encode(out -> Listing.write(out, List.of(CHANNEL), Listing.CHANNELS)));
        break;
      case CONNECTIONS:
        peer.reply(encode(out -> Listing.write(out, List.of(CONNECTION), Listing.CONNECTIONS)));
        break;
      case CONNECTION:
        boolean known = Arrays.equals(((Request.Connection) request).id(), OWN_ID);
        peer.reply(known ? encode(out -> Responses.connection(out, CONNECTION)) : hex("00"));
        break;
      case CHANNEL:
        boolean subscribed = Arrays.equals(((Request.Channel) request).channel(), ascii("news"));
        peer.reply(encode(out -> Responses.channel(out, subscribed ? List.of(SUBSCRIBER) : List.of())));
        break;
      case WHOAMI:
        peer.reply(encode(out -> Responses.whoami(out, OWN_ID)));
        break;
      case INFO:
        peer.reply(encode(out -> Responses.info(out, new InfoSnapshot(1, new long[32], new long[32], 0, 0, 0, 0,
            1, 1, 0, 2, 0, 2, 2, 5, 1, "5.0.11"))));
        break;
      default:
        throw new AssertionError("the test sends no " + request.type());
    }
  }

  @Test
  void keyCommands(Vertx vertx, VertxTestContext test) {
    ThrottrClientTest.connect(vertx, ThrottrClientTypedRepliesTest::answer).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      Future<Boolean> insert = client.insert(UTF8_KEY, 10, TtlUnit.MINUTES, 60);
      Future<Boolean> update = client.update("abc", UpdateAttribute.TTL, UpdateChange.DECREASE, 5);
      Future<Boolean> purge = client.purge(ascii("abc"));
      Future<Boolean> set = client.set("buf", ascii("EHLO"), TtlUnit.SECONDS, 30);
      Future<Response.QueryResult> query = client.query("abc");
      Future<Response.QueryResult> queryMissing = client.query("zzz");
      Future<Response.GetResult> get = client.get("buf");
      Future<Response.GetResult> getMissing = client.get("zzz");
      Future<Response.StatResult> stat = client.stat("abc");
      Future<Response.StatResult> statMissing = client.stat("zzz");
      Future.all(List.of(insert, update, purge, set, query, queryMissing, get, getMissing, stat, statMissing))
          .onComplete(test.succeeding(all -> test.verify(() -> {
            Request.Insert sentInsert = (Request.Insert) connected.peer().requests.get(0);
            assertThat(sentInsert.key()).isEqualTo(UTF8_KEY.getBytes(StandardCharsets.UTF_8)).hasSize(4);
            assertThat(sentInsert.ttlType()).isEqualTo(TtlUnit.MINUTES.code());
            Request.Update sentUpdate = (Request.Update) connected.peer().requests.get(1);
            assertThat(sentUpdate.attribute()).isEqualTo(Request.Update.ATTRIBUTE_TTL);
            assertThat(sentUpdate.change()).isEqualTo(Request.Update.CHANGE_DECREASE);
            assertThat(sentUpdate.value()).isEqualTo(5);

            assertThat(insert.result()).isTrue();
            assertThat(update.result()).isFalse();
            assertThat(purge.result()).isTrue();
            assertThat(set.result()).isTrue();
            assertThat(query.result().quota()).isEqualTo(10);
            assertThat(queryMissing.result()).isNull();
            assertThat(get.result().value()).isEqualTo(ascii("EHLO"));
            assertThat(getMissing.result()).isNull();
            assertThat(stat.result().totalReads()).isEqualTo(70);
            assertThat(statMissing.result()).isNull();
            test.completeNow();
          })));
    }));
  }

  @Test
  void serverAndConnectionCommands(Vertx vertx, VertxTestContext test) {
    ThrottrClientTest.connect(vertx, ThrottrClientTypedRepliesTest::answer).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      Future<List<Listing.KeyItem>> list = client.list();
      Future<List<Listing.KeyStatsItem>> stats = client.stats();
      Future<Response.Info> info = client.info();
      Future<byte[]> whoami = client.whoami();
      Future<List<ConnectionItem>> connections = client.connections();
      Future<ConnectionItem> connection = client.connection(OWN_ID);
      Future<ConnectionItem> unknownConnection = client.connection(new byte[16]);
      Future.all(List.of(list, stats, info, whoami, connections, connection, unknownConnection))
          .onComplete(test.succeeding(all -> test.verify(() -> {
            assertThat(list.result()).singleElement().satisfies(item -> {
              assertThat(item.key()).isEqualTo(KEY.key());
              assertThat(item.expiresAtNanos()).isEqualTo(KEY.expiresAtNanos());
            });
            assertThat(stats.result()).singleElement()
                .satisfies(item -> assertThat(item.totalWrites()).isEqualTo(KEY_STATS.totalWrites()));
            assertThat(info.result().figures().version()).isEqualTo("5.0.11");
            assertThat(info.result().figures().totalConnections()).isEqualTo(1);
            assertThat(whoami.result()).isEqualTo(OWN_ID);
            assertThat(connections.result()).singleElement()
                .satisfies(item -> assertThat(item.port()).isEqualTo(CONNECTION.port()));
            assertThat(connection.result().ip()).isEqualTo("127.0.0.1");
            assertThat(unknownConnection.result()).isNull();
            test.completeNow();
          })));
    }));
  }

  @Test
  void pubSubCommands(Vertx vertx, VertxTestContext test) {
    ThrottrClientTest.connect(vertx, ThrottrClientTypedRepliesTest::answer).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      Future<Boolean> subscribe = client.subscribe("news");
      Future<Boolean> unsubscribe = client.unsubscribe(ascii("news"));
      Future<Boolean> publish = client.publish("nobody", "hi");
      Future<List<Listing.ChannelItem>> channels = client.channels();
      Future<List<SubscriberItem>> news = client.channel("news");
      Future<List<SubscriberItem>> nobody = client.channel("nobody");
      Future.all(List.of(subscribe, unsubscribe, publish, channels, news, nobody))
          .onComplete(test.succeeding(all -> test.verify(() -> {
            assertThat(connected.peer().requests).extracting(Request::type).containsExactly(RequestType.SUBSCRIBE,
                RequestType.UNSUBSCRIBE, RequestType.PUBLISH, RequestType.CHANNELS, RequestType.CHANNEL,
                RequestType.CHANNEL);
            assertThat(((Request.Publish) connected.peer().requests.get(2)).payload()).isEqualTo(ascii("hi"));
            assertThat(subscribe.result()).isTrue();
            assertThat(unsubscribe.result()).isTrue();
            assertThat(publish.result()).isFalse();
            assertThat(channels.result()).singleElement()
                .satisfies(item -> assertThat(item.channel()).isEqualTo(ascii("*")));
            assertThat(news.result()).singleElement()
                .satisfies(item -> assertThat(item.subscribedAtNanos()).isEqualTo(123));
            assertThat(nobody.result()).isEmpty();
            test.completeNow();
          })));
    }));
  }

  @Test
  void aFailureReplyToARequestThatCannotFailFailsTheFuture(Vertx vertx, VertxTestContext test) {
    ThrottrClientTest.connect(vertx, (request, peer) -> peer.reply(hex("00"))).onComplete(test.succeeding(connected ->
        connected.client().list().onComplete(test.failing(error -> test.verify(() -> {
          assertThat(error).isInstanceOf(ThrottrClientException.class).hasMessageContaining("LIST");
          test.completeNow();
        })))));
  }

  private static void replyIfKey(FakeThrottrServer.Peer peer, Request request, String key, Consumer<ByteBuf> found) {
    boolean matches = Arrays.equals(((Request.KeyRequest) request).key(), ascii(key));
    peer.reply(matches ? encode(found) : hex("00"));
  }

  private static byte[] encode(Consumer<ByteBuf> writer) {
    ByteBuf out = Unpooled.buffer();
    writer.accept(out);
    return ByteBufUtil.getBytes(out);
  }
}
