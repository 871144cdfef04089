package io.sluice.protocol.binary.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.protocol.binary.codec.response.ResponseDecodeException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** The client's transport against a scripted server: matching, pushes, batching, closing, bounds. */
@ExtendWith(VertxExtension.class)
class ThrottrClientTest {

  private static final byte[] QUERY_ABC_REPLY = hex("01 0a 00 04 3b 00");

  /** A connected client and the server it talks to. */
  record Connected(FakeThrottrServer server, ThrottrClient client) {
    FakeThrottrServer.Peer peer() {
      return server.peers.get(0);
    }
  }

  static Future<Connected> connect(Vertx vertx, FakeThrottrServer.Script script) {
    return connect(vertx, script, UnaryOperator.identity());
  }

  static Future<Connected> connect(Vertx vertx, FakeThrottrServer.Script script,
      UnaryOperator<ThrottrClientOptions> adjust) {
    return FakeThrottrServer.start(vertx, script).compose(server ->
        ThrottrClient.connect(vertx, adjust.apply(server.clientOptions()))
            .map(client -> new Connected(server, client)));
  }

  @Test
  void pipelinedRequestsAreMatchedToTheirRepliesInOrder(Vertx vertx, VertxTestContext test) {
    // The server answers only once all four requests are in, with the four replies in one write.
    FakeThrottrServer.Script answerAllAtOnce = (request, peer) -> {
      if (peer.requests.size() == 4) {
        peer.reply(hex("01"), QUERY_ABC_REPLY, hex("00"), hex("01 04 1d 00 04 00 45 48 4c 4f"));
      }
    };
    connect(vertx, answerAllAtOnce).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      Future<Boolean> insert = client.insert("abc", 10, TtlUnit.SECONDS, 60);
      Future<Response.QueryResult> found = client.query("abc");
      Future<Response.QueryResult> missing = client.query("zzz");
      Future<Response.GetResult> buffer = client.get("buf");
      Future.all(insert, found, missing, buffer).onComplete(test.succeeding(all -> test.verify(() -> {
        assertThat(connected.peer().requests).extracting(Request::type)
            .containsExactly(RequestType.INSERT, RequestType.QUERY, RequestType.QUERY, RequestType.GET);
        assertThat(insert.result()).isTrue();
        assertThat(found.result().quota()).isEqualTo(10);
        assertThat(found.result().ttl()).isEqualTo(59);
        assertThat(missing.result()).isNull();
        assertThat(buffer.result().value()).isEqualTo(ascii("EHLO"));
        test.completeNow();
      })));
    }));
  }

  @Test
  void requestsFromManyThreadsEachGetTheirOwnReply(Vertx vertx, VertxTestContext test) {
    int threads = 4;
    int perThread = 50;
    // The quota in each reply is the number in the key, so a reply matched to the wrong request shows.
    FakeThrottrServer.Script quotaFromKey = (request, peer) -> {
      int number = Integer.parseInt(new String(((Request.Query) request).key(), StandardCharsets.UTF_8));
      peer.reply(hex("01"), new byte[] {(byte) number, (byte) (number >> 8)}, hex("04 3b 00"));
    };
    Checkpoint answered = test.checkpoint(threads * perThread);
    connect(vertx, quotaFromKey).onComplete(test.succeeding(connected -> {
      for (int t = 0; t < threads; t++) {
        int first = t * 1000;
        new Thread(() -> {
          for (int number = first; number < first + perThread; number++) {
            int expected = number;
            connected.client().query(Integer.toString(number)).onComplete(test.succeeding(reply -> test.verify(() -> {
              assertThat(reply.quota()).isEqualTo(expected);
              answered.flag();
            })));
          }
        }, "sender-" + t).start();
      }
    }));
  }

  @Test
  void aPushThatArrivesBeforeThePublishStatusIsDeliveredFirst(Vertx vertx, VertxTestContext test) {
    // Spec §9 row 40: the publisher's own broadcast comes back before its status byte.
    FakeThrottrServer.Script broadcast = (request, peer) -> peer.reply(hex("19 01 03 00 2a 61 6c 6c"), hex("01"));
    List<String> events = new CopyOnWriteArrayList<>();
    connect(vertx, broadcast).onComplete(test.succeeding(connected -> {
      connected.client().pushHandler(push ->
          events.add("push " + utf8(push.channel()) + " " + utf8(push.payload())));
      connected.client().publish("*", "all").onComplete(test.succeeding(published -> test.verify(() -> {
        events.add("published " + published);
        assertThat(events).containsExactly("push * all", "published true");
        test.completeNow();
      })));
    }));
  }

  @Test
  void aPushWithNoRequestOutstandingReachesThePushHandler(Vertx vertx, VertxTestContext test) {
    // The status first, then a message pushed to this connection's ID channel (spec §9 row 41).
    byte[] idChannel = ascii("0123456789abcdef0123456789abcdef");
    FakeThrottrServer.Script subscribeThenPush = (request, peer) -> {
      peer.reply(hex("01"));
      peer.reply(hex("19 20 02 00"), idChannel, ascii("hi"));
    };
    Checkpoint subscribed = test.checkpoint();
    Checkpoint pushed = test.checkpoint();
    connect(vertx, subscribeThenPush).onComplete(test.succeeding(connected -> {
      connected.client().pushHandler(push -> test.verify(() -> {
        assertThat(push.channel()).isEqualTo(idChannel);
        assertThat(push.payload()).isEqualTo(ascii("hi"));
        pushed.flag();
      }));
      connected.client().subscribe("news").onComplete(test.succeeding(ok -> test.verify(() -> {
        assertThat(ok).isTrue();
        subscribed.flag();
      })));
    }));
  }

  @Test
  void aBatchReachesTheServerWholeAndCompletesWithTheRepliesInOrder(Vertx vertx, VertxTestContext test) {
    List<Request> requests = List.of(
        new Request.Insert(10, TtlUnit.SECONDS.code(), 60, ascii("abc")),
        new Request.Query(ascii("abc")),
        new Request.Set(TtlUnit.SECONDS.code(), 30, ascii("buf"), ascii("EHLO")),
        new Request.Purge(ascii("nope")),
        Request.Bare.WHOAMI);
    byte[] id = ascii("0123456789abcdef");
    FakeThrottrServer.Script answerWhenAllArrived = (request, peer) -> {
      if (peer.requests.size() == requests.size()) {
        peer.reply(hex("01"), QUERY_ABC_REPLY, hex("01 00 01"), id);
      }
    };
    connect(vertx, answerWhenAllArrived).onComplete(test.succeeding(connected ->
        connected.client().batch(requests).onComplete(test.succeeding(replies -> test.verify(() -> {
          // Sent one by one, each waiting for its reply, the server would first read one request.
          // (How many socket writes it took is checked in ThrottrClientImplBatchWriteTest.)
          assertThat(connected.peer().readSizes).as("the server read the whole batch at once")
              .first().isEqualTo(encodedLength(requests));
          assertThat(replies).extracting(reply -> reply.getClass().getSimpleName())
              .containsExactly("Status", "QueryResult", "Status", "Status", "WhoAmI");
          assertThat(((Response.Status) replies.get(2)).ok()).isTrue();
          assertThat(((Response.Status) replies.get(3)).ok()).isFalse();
          assertThat(((Response.WhoAmI) replies.get(4)).id()).isEqualTo(id);
          test.completeNow();
        })))));
  }

  @Test
  void whenTheServerClosesEveryPendingRequestFails(Vertx vertx, VertxTestContext test) {
    FakeThrottrServer.Script closeOnThirdRequest = (request, peer) -> {
      if (peer.requests.size() == 3) {
        peer.close();
      }
    };
    Checkpoint failedPending = test.checkpoint(3);
    Checkpoint closed = test.checkpoint();
    Checkpoint refusedAfterClose = test.checkpoint();
    connect(vertx, closeOnThirdRequest).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      client.closeHandler(ignored -> {
        closed.flag();
        client.query("late").onComplete(test.failing(error -> test.verify(() -> {
          assertThat(error).isInstanceOf(ConnectionClosedException.class);
          refusedAfterClose.flag();
        })));
      });
      for (String key : List.of("a", "b", "c")) {
        client.query(key).onComplete(test.failing(error -> test.verify(() -> {
          assertThat(error).isInstanceOf(ConnectionClosedException.class);
          failedPending.flag();
        })));
      }
    }));
  }

  @Test
  void requestsBeyondMaxPendingFailAtOnceAndAreNotSent(Vertx vertx, VertxTestContext test) {
    FakeThrottrServer.Script silent = (request, peer) -> { };
    Checkpoint pendingFailOnClose = test.checkpoint(2);
    Checkpoint refused = test.checkpoint(2);
    connect(vertx, silent, options -> options.setMaxPending(2)).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      client.query("one").onComplete(test.failing(error -> pendingFailOnClose.flag()));
      client.query("two").onComplete(test.failing(error -> pendingFailOnClose.flag()));
      Future<Response.QueryResult> third = client.query("three");
      Future<List<Response>> batch = client.batch(List.of(new Request.Query(ascii("four"))));
      for (Future<?> overflow : List.of(third, batch)) {
        overflow.onComplete(test.failing(error -> test.verify(() -> {
          assertThat(error).isInstanceOf(PendingQueueFullException.class).hasMessageContaining("limit is 2");
          refused.flag();
        })));
      }
      // Closing fails the two pending queries; it waits for the refusals so it cannot cause them.
      Future.all(third.otherwiseEmpty(), batch.otherwiseEmpty()).onComplete(ignored -> client.close());
    }));
  }

  @Test
  void aByteThatStartsNoReplyFailsTheRequestAndClosesTheConnection(Vertx vertx, VertxTestContext test) {
    FakeThrottrServer.Script garbage = (request, peer) -> peer.reply(hex("07"));
    Checkpoint failed = test.checkpoint();
    Checkpoint closed = test.checkpoint();
    connect(vertx, garbage).onComplete(test.succeeding(connected -> {
      connected.client().closeHandler(ignored -> closed.flag());
      connected.client().query("abc").onComplete(test.failing(error -> test.verify(() -> {
        assertThat(error).isInstanceOf(ResponseDecodeException.class).hasMessageContaining("0x07");
        failed.flag();
      })));
    }));
  }

  @Test
  void requestsThatCannotBeEncodedFailWithoutDisturbingTheStream(Vertx vertx, VertxTestContext test) {
    byte[] id = ascii("0123456789abcdef");
    FakeThrottrServer.Script whoami = (request, peer) -> peer.reply(hex("01"), id);
    connect(vertx, whoami).onComplete(test.succeeding(connected -> {
      ThrottrClient client = connected.client();
      Future<Response.QueryResult> longKey = client.query(new byte[256]);
      Future<?> shortId = client.connection(new byte[15]);
      Future<List<Response>> batchWithOneBad =
          client.batch(List.of(Request.Bare.WHOAMI, new Request.Purge(new byte[300])));
      Future<byte[]> whoAmI = client.whoami();
      Future.join(longKey, shortId, batchWithOneBad, whoAmI).onComplete(ignored -> test.verify(() -> {
        assertThat(longKey.cause()).isInstanceOf(IllegalArgumentException.class);
        assertThat(shortId.cause()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
        assertThat(batchWithOneBad.cause()).isInstanceOf(IllegalArgumentException.class);
        assertThat(whoAmI.result()).isEqualTo(id);
        assertThat(connected.peer().requests).extracting(Request::type).containsExactly(RequestType.WHOAMI);
        test.completeNow();
      }));
    }));
  }

  @Test
  void aFutureCallbackThatThrowsDoesNotLoseTheRepliesAfterIt(Vertx vertx, VertxTestContext test) {
    List<Throwable> reported = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(reported::add);
    FakeThrottrServer.Script answerBoth = (request, peer) -> {
      if (peer.requests.size() == 2) {
        peer.reply(QUERY_ABC_REPLY, QUERY_ABC_REPLY);
      }
    };
    connect(vertx, answerBoth).onComplete(test.succeeding(connected -> {
      connected.client().query("first").onSuccess(reply -> {
        throw new IllegalStateException("a careless callback");
      });
      connected.client().query("second").onComplete(test.succeeding(reply -> test.verify(() -> {
        assertThat(reply.quota()).isEqualTo(10);
        assertThat(reported).extracting(Throwable::getMessage).containsExactly("a careless callback");
        test.completeNow();
      })));
    }));
  }

  @Test
  void connectingToAPortNobodyListensOnFails(Vertx vertx, VertxTestContext test) throws IOException {
    // A bound socket that never listens holds its port: a connection there is refused, and no
    // other process can start listening on it meanwhile, as it could on a port just released.
    Socket portHolder = new Socket();
    portHolder.bind(new InetSocketAddress("127.0.0.1", 0));
    ThrottrClientOptions options = new ThrottrClientOptions().setPort(portHolder.getLocalPort());
    ThrottrClient.connect(vertx, options).onComplete(result -> {
      closeQuietly(portHolder);
      test.verify(() -> assertThat(result.failed()).as("connect to a port nobody listens on").isTrue());
      test.completeNow();
    });
  }

  static byte[] hex(String text) {
    return ByteBufUtil.decodeHexDump(text.replace(" ", ""));
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // the test has its answer already
    }
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static int encodedLength(List<Request> requests) {
    ByteBuf out = Unpooled.buffer();
    requests.forEach(request -> RequestEncoder.encode(out, ValueSize.UINT16, request));
    return out.readableBytes();
  }
}
