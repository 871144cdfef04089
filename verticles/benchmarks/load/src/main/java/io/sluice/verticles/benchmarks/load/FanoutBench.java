package io.sluice.verticles.benchmarks.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.ValueSize;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import org.HdrHistogram.Recorder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code java -jar sluice.jar bench fanout}: one Throttr TCP publisher, many WebSocket subscribers
 * (JSON, as browsers use). Each message carries its send time; every subscriber records
 * publish→receive latency. Reports deliveries per second and latency percentiles.
 */
final class FanoutBench {

  static final String HELP = String.join("\n",
      "Usage: java -jar sluice.jar bench fanout [options]",
      "  --host HOST          server address (127.0.0.1)",
      "  --port PORT          Throttr TCP port of the publisher (9000)",
      "  --http-port PORT     HTTP port of the WebSocket bridge (8080)",
      "  --subscribers N      WebSocket subscribers (1000)",
      "  --in-flight N        PUBLISH requests awaiting their status (8)",
      "  --rate N             instead: N publishes per second on a fixed schedule (open loop), for",
      "                       latency at a given load; each message carries its scheduled time",
      "  --duration SECONDS   measured time (10)",
      "  --warmup SECONDS     unmeasured time before it (2)",
      "  --jwt-secret-file F  each subscriber connects with its own HS256 token (?token=) signed with",
      "                       this secret, the server's --ws-jwt-secret-file: the cost of verifying",
      "  --history            the server keeps channel history (--channel-history 1000 or more): each",
      "                       subscriber checks the offsets (gaps, duplicates), and after the run a",
      "                       new client recovers the last 1,000 messages, timed");

  private static final String CHANNEL = "bench.fanout";
  private static final byte[] CHANNEL_BYTES = CHANNEL.getBytes(StandardCharsets.US_ASCII);

  private FanoutBench() {
  }

  static int run(List<String> args) throws Exception {
    Map<String, String> options = Arguments.parse(args, List.of("host", "port", "http-port", "subscribers",
        "in-flight", "rate", "duration", "warmup", "jwt-secret-file"), List.of("history"));
    if (options == null) {
      System.out.println(HELP);
      return 0;
    }
    String host = options.getOrDefault("host", "127.0.0.1");
    int port = Arguments.positive(options, "port", 9000);
    int httpPort = Arguments.positive(options, "http-port", 8080);
    int subscribers = Arguments.positive(options, "subscribers", 1000);
    int inFlight = Arguments.positive(options, "in-flight", 8);
    int rate = Arguments.nonNegative(options, "rate", 0);
    long durationMillis = Arguments.positive(options, "duration", 10) * 1000L;
    long warmupMillis = Arguments.nonNegative(options, "warmup", 2) * 1000L;
    OffsetCheck offsets = options.containsKey("history") ? new OffsetCheck() : null;
    BenchTokens tokens = options.containsKey("jwt-secret-file")
        ? BenchTokens.fromFile(java.nio.file.Path.of(options.get("jwt-secret-file"))) : null;

    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(Runtime.getRuntime().availableProcessors())
        .setPreferNativeTransport(true));
    try {
      Recorder latency = new Recorder(3_600_000_000_000L, 3);
      AtomicLong deliveries = new AtomicLong();
      WebSocketClient wsClient = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(subscribers * 2));
      List<Future<Void>> subscribed = new ArrayList<>();
      long setupStart = System.nanoTime();
      for (int i = 0; i < subscribers; i++) {
        String uri = tokens == null ? "/ws" : "/ws?token=" + tokens.token("bench-" + i, CHANNEL);
        subscribed.add(subscribe(wsClient, host, httpPort, uri, latency, deliveries,
            offsets == null ? null : offsets.new Subscriber()));
      }
      await(Future.all(subscribed));
      System.out.printf("%d WebSocket subscribers on %s%s, connected and subscribed in %.1f ms%n", subscribers, CHANNEL,
          tokens == null ? "" : " (each with its own token)", (System.nanoTime() - setupStart) / 1e6);

      var netClient = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
      NetSocket publisher = await(netClient.connect(port, host));
      Publisher loop = new Publisher(publisher, inFlight);
      vertx.runOnContext(v -> {
        if (rate > 0) {
          loop.startAtRate(vertx, rate);
        } else {
          loop.start();
        }
      });
      Thread.sleep(warmupMillis);
      latency.reset();
      long start = System.nanoTime();
      long startDeliveries = deliveries.get();
      Thread.sleep(durationMillis);
      double seconds = (System.nanoTime() - start) / 1e9;
      long delivered = deliveries.get() - startDeliveries;
      var histogram = latency.getIntervalHistogram();
      loop.stop();
      System.out.printf("%,.0f deliveries/s  (%,d in %.2f s, %,d publishes acknowledged, %d refused)%n",
          delivered / seconds, delivered, seconds, loop.acknowledged.get(), loop.refused.get());
      System.out.printf("publish->receive latency us: p50 %.1f  p99 %.1f  p999 %.1f  max %.1f%n",
          histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
          histogram.getValueAtPercentile(99.9) / 1e3, histogram.getMaxValue() / 1e3);
      await(netClient.close());
      if (offsets != null) {
        System.out.printf("offsets: %,d gaps, %,d duplicates, %,d messages without an offset%n",
            offsets.gaps.get(), offsets.duplicates.get(), offsets.unnumbered.get());
        String uri = tokens == null ? "/ws" : "/ws?token=" + tokens.token("bench-recovery", CHANNEL);
        long nanos = await(offsets.recover(wsClient, host, httpPort, uri, CHANNEL, RECOVERED));
        System.out.printf("recovery of %,d missed messages: %.1f ms%n", RECOVERED, nanos / 1e6);
      }
      await(wsClient.close());
      if (delivered == 0) {
        System.out.println("no delivery measured: the server's pushes did not reach the subscribers");
      }
      boolean offsetsHeld = offsets == null || offsets.gaps.get() + offsets.duplicates.get() + offsets.unnumbered.get() == 0;
      return loop.refused.get() == 0 && delivered > 0 && offsetsHeld ? 0 : 1;
    } finally {
      vertx.close();
    }
  }

  /** With --history: the missed messages a new client recovers after the run, timed. */
  private static final int RECOVERED = 1_000;

  /** @param offsets checks this subscriber's offsets (--history), or null */
  private static Future<Void> subscribe(WebSocketClient client, String host, int port, String uri, Recorder latency,
                                        AtomicLong deliveries, OffsetCheck.Subscriber offsets) {
    return client.connect(port, host, uri).compose(ws -> {
      Promise<Void> acked = Promise.promise();
      ws.textMessageHandler(text -> {
        long sentAt = sentAt(text);
        if (sentAt >= 0) {
          latency.recordValue(Math.max(0, System.nanoTime() - sentAt));
          deliveries.incrementAndGet();
          if (offsets != null) {
            offsets.seen(text);
          }
        } else if ("ack".equals(new JsonObject(text).getString("event"))) {
          acked.tryComplete();
        }
      });
      ws.writeTextMessage(new JsonObject().put("op", "subscribe").put("channel", CHANNEL).encode());
      return acked.future();
    });
  }

  private static final String MESSAGE_PREFIX = "{\"event\":\"message\",\"channel\":\"" + CHANNEL + "\",\"data\":\"";

  /**
   * The send time a push carries, or -1 for anything else. The load tool shares the server's cores,
   * so it reads the one field it needs from the bridge's fixed layout instead of parsing JSON; a
   * change of that layout shows up as a failed run with zero deliveries, not as wrong figures.
   */
  static long sentAt(String text) {
    int end = text.indexOf('"', MESSAGE_PREFIX.length());
    if (!text.startsWith(MESSAGE_PREFIX) || end < 0 || !text.endsWith("}")) {
      return -1;
    }
    try {
      return Long.parseLong(text, MESSAGE_PREFIX.length(), end, 10);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Keeps {@code inFlight} PUBLISHes awaiting their status; each payload is its send time. */
  private static final class Publisher {
    private final NetSocket socket;
    private final int inFlight;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private static final long MAX_BEHIND = 1_000;
    private volatile boolean stopped;
    private boolean paced;
    private long sent;

    Publisher(NetSocket socket, int inFlight) {
      this.socket = socket;
      this.inFlight = inFlight;
    }

    void start() {
      socket.handler(this::onStatus);
      publish(inFlight);
    }

    /**
     * Open loop: publish i is due at {@code start + i / rate}, and carries that time, not the time it
     * left; a server that falls behind shows as latency, not as a slower schedule (no coordinated
     * omission). With more than {@link #MAX_BEHIND} unanswered, due publishes wait, still stamped
     * with their due time.
     */
    void startAtRate(Vertx vertx, int rate) {
      paced = true;
      socket.handler(this::onStatus);
      long start = System.nanoTime();
      vertx.setPeriodic(1, timer -> {
        if (stopped) {
          vertx.cancelTimer(timer);
          return;
        }
        // Publishes 0 … due-1 are due: publish i at start + i / rate.
        long due = (System.nanoTime() - start) * rate / 1_000_000_000L + 1;
        long answered = acknowledged.get() + refused.get();
        long count = Math.min(due - sent, MAX_BEHIND - (sent - answered));
        if (count <= 0) {
          return;
        }
        ByteBuf out = Unpooled.buffer();
        for (long i = sent; i < sent + count; i++) {
          encodePublish(out, start + i * 1_000_000_000L / rate);
        }
        sent += count;
        socket.write(BufferInternal.buffer(out));
      });
    }

    void stop() {
      stopped = true;
    }

    private void onStatus(Buffer statuses) {
      int count = 0;
      for (int i = 0; i < statuses.length(); i++) {
        if (statuses.getByte(i) == 0x01) {
          acknowledged.incrementAndGet();
        } else {
          refused.incrementAndGet();
        }
        count++;
      }
      if (!stopped && !paced) {
        publish(count);
      }
    }

    private void publish(int count) {
      ByteBuf out = Unpooled.buffer();
      for (int i = 0; i < count; i++) {
        encodePublish(out, System.nanoTime());
      }
      socket.write(BufferInternal.buffer(out));
    }

    private static void encodePublish(ByteBuf out, long sentAt) {
      byte[] payload = Long.toString(sentAt).getBytes(StandardCharsets.US_ASCII);
      RequestEncoder.encode(out, ValueSize.UINT16, new Request.Publish(CHANNEL_BYTES, payload));
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
  }
}
