package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.server.kit.ChannelCalls;
import io.sluice.verticles.server.kit.ChannelCalls.Subscriber;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.verticles.server.kit.ChannelCalls.ackAuth;
import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.publish;
import static io.sluice.verticles.server.kit.ChannelFrames.subscribe;
import static io.sluice.verticles.server.kit.ChannelFrames.unsubscribe;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slow-consumer policy: a subscriber that stops reading while a publisher floods its channel
 * does not make the server buffer without limit. Its pushes are dropped and counted once its
 * outbound queue is full; a subscriber that reads gets every message, in order; the publisher gets
 * a {@code 01} for every PUBLISH. When the slow subscriber reads again, it gets exactly the messages
 * the server accepted for it, in order, and nothing else.
 *
 * <p>The publisher keeps at most {@link #WINDOW} messages ahead of the reading subscriber (it is
 * paced by what that subscriber has received, never by time): fewer bytes than that subscriber may
 * have pending, so its own queue can never be full and no message of its may be dropped. The
 * paused subscriber uses a small socket receive buffer, so the kernel holds little for it and the
 * server's queue fills early.
 *
 * <p>The bound is checked on the server's own figures rather than on the heap: Netty copies
 * outgoing heap buffers to direct memory, so an unbounded queue would not even show there. What
 * the server accepted for the paused client (pushed bytes) plus what it dropped is exactly what was
 * published, and what it accepted is bounded by the socket buffers, far below the flood.
 */
class SlowSubscriberTest {

  private static final int MESSAGES = 100_000;
  private static final String CHANNEL = "flood";
  private static final int PAYLOAD = 200;
  private static final int FRAME = 4 + CHANNEL.length() + PAYLOAD;
  private static final int MAX_PENDING_BYTES = 32 * 1024;
  /**
   * Messages the publisher may be ahead of the reading subscriber. Netty counts about 96 bytes of
   * bookkeeping per queued write on top of its bytes: 64 × (209 + 96) is still under the limit.
   */
  private static final int WINDOW = 64;
  private static final int CHUNK = 16;
  private static final int SMALL_RECEIVE_BUFFER = 4096;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withLimits(ConnectionLimits.defaults().withMaxPendingBytes(MAX_PENDING_BYTES)));
  private final List<AutoCloseable> clients = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable client : clients) {
      client.close();
    }
    sut.close();
    await(vertx.close());
  }

  /** The payload of message {@code seq}: its number in 8 ASCII digits, padded with ASCII. */
  private static byte[] payload(long seq) {
    return (String.format("%08d", seq) + "x".repeat(PAYLOAD - 8)).getBytes(StandardCharsets.US_ASCII);
  }

  private static long seqOf(byte[] payload) {
    return Long.parseLong(new String(payload, 0, 8, StandardCharsets.US_ASCII));
  }

  @Test
  void pausedTcpSubscriberIsDroppedWhileAReadingOneGetsEverything() {
    NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true)
        .setReceiveBufferSize(SMALL_RECEIVE_BUFFER));
    clients.add(client::close);
    NetSocket slow = await(client.connect(sut.tcpPort(), "127.0.0.1"));
    ThrottrReader slowReader = new ThrottrReader(false);
    slow.handler(slowReader::feed);
    await(slow.write(Buffer.buffer(subscribe(CHANNEL))));
    await(slowReader.statuses(1));
    slow.pause();
    ConnectionStats slowStats = statsOfPort(slow.localAddress().port());

    long accepted = flood(slowStats);

    slow.resume();
    await(slowReader.pushes(accepted));
    await(slow.write(Buffer.buffer(unsubscribe("nope"))));
    await(slowReader.statuses(2));
    assertThat(slowReader.pushes).as("pushes received after reading again").isEqualTo(accepted);
    assertThat(slowReader.lastStatus).as("the reply after them").isEqualTo(0);
    assertThat(slowReader.failure()).isNull();
  }

  @Test
  void pausedJsonSubscriberIsDroppedWhileAReadingOneGetsEverything() {
    JsonWebSocket slow = await(JsonWebSocket.open(vertx,
        new WebSocketClientOptions().setReceiveBufferSize(SMALL_RECEIVE_BUFFER), JsonWebSocket.options(sut.httpPort())));
    clients.add(slow);
    assertThat(call(slow, jsonSubscribe(CHANNEL, 1))).isEqualTo(ack("subscribe", CHANNEL, 1, 1));
    slow.pause();
    ConnectionStats slowStats = statsOfPort(slow.socket().localAddress().port());

    long accepted = flood(slowStats);

    slow.resume();
    long last = -1;
    for (long i = 0; i < accepted; i++) {
      JsonObject message = await(slow.next());
      assertThat(message.getString("event")).isEqualTo("message");
      assertThat(message.getString("channel")).isEqualTo(CHANNEL);
      long seq = seqOf(message.getString("data").getBytes(StandardCharsets.US_ASCII));
      assertThat(seq).as("messages keep their order").isGreaterThan(last);
      last = seq;
    }
    assertThat(call(slow, new JsonObject().put("op", "auth").put("token", ""))).as("nothing else before the ack")
        .isEqualTo(ackAuth(1));
  }

  /**
   * Floods the channel from a publisher while a second subscriber reads; returns how many messages
   * the server accepted for the paused subscriber, after checking every figure.
   */
  private long flood(ConnectionStats slowStats) {
    Conversation observer = await(TcpConversation.open(vertx, sut.tcpPort()));
    clients.add(observer);

    NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
    clients.add(client::close);
    NetSocket fast = await(client.connect(sut.tcpPort(), "127.0.0.1"));
    ThrottrReader fastReader = new ThrottrReader(true);
    fast.handler(fastReader::feed);
    await(fast.write(Buffer.buffer(subscribe(CHANNEL))));
    await(fastReader.statuses(1));
    ConnectionStats fastStats = statsOfPort(fast.localAddress().port());

    NetSocket publisher = await(client.connect(sut.tcpPort(), "127.0.0.1"));
    Promise<Void> allStatuses = Promise.promise();
    AtomicLong statuses = new AtomicLong();
    publisher.handler(data -> {
      for (int i = 0; i < data.length(); i++) {
        if (data.getByte(i) != 1) {
          allStatuses.tryFail("PUBLISH " + (statuses.get() + i) + " answered " + data.getByte(i));
        }
      }
      if (statuses.addAndGet(data.length()) == MESSAGES) {
        allStatuses.tryComplete();
      }
    });
    Pump pump = new Pump(publisher, fastReader);
    fastReader.onPush = pump::run;
    pump.run();

    await(fastReader.pushes(MESSAGES));
    await(allStatuses.future());
    assertThat(fastReader.failure()).as("the reading subscriber's stream").isNull();
    assertThat(fastReader.pushes).isEqualTo(MESSAGES);

    awaitEveryDeliveryHandled(observer, slowStats);
    long dropped = slowStats.droppedPushes();
    long pushedBytes = slowStats.toItem().receivedBytes();
    assertThat(pushedBytes % PAYLOAD).isZero();
    long accepted = pushedBytes / PAYLOAD;
    assertThat(dropped).as("pushes dropped for the paused subscriber").isPositive();
    assertThat(accepted + dropped).as("every message was either queued or dropped").isEqualTo(MESSAGES);
    assertThat(accepted * FRAME).as("bytes the server took on for the paused subscriber")
        .isLessThan((long) MESSAGES * FRAME / 2);
    assertThat(fastStats.droppedPushes()).as("pushes dropped for the reading subscriber").isZero();
    assertThat(sut.server().instance().channels().droppedPushes()).as("the instance's count").isEqualTo(dropped);
    return accepted;
  }

  /**
   * Deliveries reach the paused subscriber's event loop asynchronously; CHANNEL's read bytes of its
   * subscription record count each one handled (pushed or dropped), so asking until it shows the
   * whole flood is a bounded wait on a server figure, one round trip per try.
   */
  private static void awaitEveryDeliveryHandled(Conversation observer, ConnectionStats slowStats) {
    long expected = (long) MESSAGES * PAYLOAD;
    long deadline = System.nanoTime() + 30_000_000_000L;
    long seen;
    do {
      seen = ChannelCalls.channel(observer, CHANNEL).stream()
          .filter(s -> s.idHex().equals(slowStats.idHex()))
          .mapToLong(Subscriber::readBytes).sum();
    } while (seen < expected && System.nanoTime() < deadline);
    assertThat(seen).isEqualTo(expected);
  }

  private ConnectionStats statsOfPort(int port) {
    List<ConnectionStats> found = sut.server().instance().connections().all().stream()
        .filter(c -> c.port() == port).toList();
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  /** Writes PUBLISH frames while the publisher is fewer than WINDOW messages ahead of the reading subscriber. */
  private static final class Pump {

    private final NetSocket publisher;
    private final ThrottrReader reader;
    private long sent;

    Pump(NetSocket publisher, ThrottrReader reader) {
      this.publisher = publisher;
      this.reader = reader;
    }

    synchronized void run() {
      while (sent < MESSAGES && sent - reader.pushes < WINDOW) {
        long n = Math.min(CHUNK, Math.min(MESSAGES - sent, WINDOW - (sent - reader.pushes)));
        Buffer chunk = Buffer.buffer((int) n * FRAME);
        for (long i = 0; i < n; i++) {
          chunk.appendBytes(publish(CHANNEL, payload(sent + i)));
        }
        publisher.write(chunk);
        sent += n;
      }
    }
  }

  /**
   * Reads a subscriber's Throttr stream: one-byte statuses and pushes on {@link #CHANNEL}; checks
   * the message numbers go up (strictly by one when {@code complete}, i.e. nothing may be missing).
   */
  private static final class ThrottrReader {

    private final boolean complete;
    private Buffer pending = Buffer.buffer();
    private volatile long pushes;
    private volatile int statuses;
    private volatile int lastStatus = -1;
    private long lastSeq = -1;
    private volatile String failure;
    private final List<Waiter> waiters = new ArrayList<>();
    volatile Runnable onPush = () -> { };

    private record Waiter(boolean forPushes, long count, Promise<Void> promise) {
    }

    ThrottrReader(boolean complete) {
      this.complete = complete;
    }

    String failure() {
      return failure;
    }

    synchronized Future<Void> pushes(long count) {
      return waitFor(true, count);
    }

    synchronized Future<Void> statuses(int count) {
      return waitFor(false, count);
    }

    private Future<Void> waitFor(boolean forPushes, long count) {
      Waiter waiter = new Waiter(forPushes, count, Promise.promise());
      waiters.add(waiter);
      serve();
      return waiter.promise.future();
    }

    void feed(Buffer data) {
      boolean pushed;
      synchronized (this) {
        long before = pushes;
        pending.appendBuffer(data);
        parse();
        serve();
        pushed = pushes != before;
      }
      if (pushed) {
        onPush.run();
      }
    }

    private void parse() {
      int at = 0;
      while (at < pending.length() && failure == null) {
        int type = pending.getUnsignedByte(at);
        if (type == 0 || type == 1) {
          statuses++;
          lastStatus = type;
          at++;
          continue;
        }
        if (type != 0x19) {
          fail("unexpected byte " + type + " after " + pushes + " pushes");
          break;
        }
        if (pending.length() - at < 4) {
          break;
        }
        int channelLength = pending.getUnsignedByte(at + 1);
        int payloadLength = pending.getUnsignedShortLE(at + 2);
        int length = 4 + channelLength + payloadLength;
        if (pending.length() - at < length) {
          break;
        }
        String channel = pending.getString(at + 4, at + 4 + channelLength, "US-ASCII");
        byte[] payload = pending.getBytes(at + 4 + channelLength, at + length);
        at += length;
        if (!channel.equals(CHANNEL) || payloadLength != PAYLOAD) {
          fail("push on '" + channel + "' of " + payloadLength + " bytes");
          break;
        }
        long seq = seqOf(payload);
        if (complete ? seq != lastSeq + 1 : seq <= lastSeq) {
          fail("message " + seq + " after " + lastSeq);
        }
        lastSeq = seq;
        pushes++;
      }
      pending = pending.getBuffer(at, pending.length());
    }

    private void fail(String reason) {
      failure = reason;
      waiters.forEach(w -> w.promise.tryFail(reason));
      waiters.clear();
    }

    private void serve() {
      waiters.removeIf(w -> {
        if ((w.forPushes ? pushes : statuses) >= w.count) {
          w.promise.complete();
          return true;
        }
        return false;
      });
    }
  }
}
