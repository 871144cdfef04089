package io.sluice.verticles.benchmarks.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import io.sluice.verticles.transport.BatchedDatagrams;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code java -jar sluice.jar bench udp}: drives the UDP text protocol with {@code over_limit}
 * requests. Each client socket keeps N requests in flight, each with an id unique to that socket;
 * replies are matched by id and checked to be exactly {@code <id> ok [YN] <rate> <limit> <period>}.
 * A request unanswered after the timeout (1 s) counts as lost — UDP drops silently — and a new
 * one takes its place. Reports replies per second and latency percentiles; exits 1 if any reply
 * was malformed or answered no request of its socket.
 *
 * <p>It runs on Netty's epoll transport directly (NIO elsewhere), not on Vert.x: the load tool
 * shares the machine with the server, so it must cost as little CPU as possible. Each socket sends
 * and reads with {@link BatchedDatagrams}, like the server: the requests of a turn leave in one
 * {@code sendmmsg}, bursts of replies arrive in one {@code recvmmsg}.
 */
final class UdpBench {

  static final String HELP = String.join("\n",
      "Usage: java -jar sluice.jar bench udp [options]",
      "Drives the UDP text protocol with over_limit requests; every reply is matched by id and validated.",
      "  --host HOST          server address (127.0.0.1)",
      "  --port PORT          UDP port (9001)",
      "  --clients N          client sockets (8)",
      "  --in-flight N        requests awaiting their reply, per socket (32)",
      "  --keys N             distinct keys 'ws ip=198.18.x.y', picked at random per request (1000)",
      "  --duration SECONDS   measured time (10)",
      "  --warmup SECONDS     unmeasured time before it (2)",
      "  --timeout-ms MILLIS  a request unanswered this long is lost (1000)",
      "  --threads N          client threads, each serving some of the sockets (clients, at most the cores)");

  private static final long HIGHEST_LATENCY_NANOS = 3_600_000_000_000L;
  private static final byte[] OVER_LIMIT = " over_limit ".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_KEYS = 2 * 65_536;

  private UdpBench() {
  }

  static int run(List<String> args) throws Exception {
    Map<String, String> options = Arguments.parse(args, List.of("host", "port", "clients", "in-flight", "keys",
        "duration", "warmup", "timeout-ms", "threads"));
    if (options == null) {
      System.out.println(HELP);
      return 0;
    }
    String host = options.getOrDefault("host", "127.0.0.1");
    int port = Arguments.positive(options, "port", 9001);
    int clients = Arguments.positive(options, "clients", 8);
    int inFlight = Arguments.positive(options, "in-flight", 32);
    int keyCount = Arguments.positive(options, "keys", 1000);
    long durationMillis = Arguments.positive(options, "duration", 10) * 1000L;
    long warmupMillis = Arguments.nonNegative(options, "warmup", 2) * 1000L;
    long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(Arguments.positive(options, "timeout-ms", 1000));
    int threads = Math.min(clients, Arguments.positive(options, "threads",
        Math.min(clients, Runtime.getRuntime().availableProcessors())));
    if (keyCount > MAX_KEYS) {
      throw new IllegalArgumentException("--keys must be at most " + MAX_KEYS);
    }
    byte[][] keys = keys(keyCount);
    InetSocketAddress server = new InetSocketAddress(host, port);
    if (server.isUnresolved()) {
      throw new IllegalArgumentException("unknown host '" + host + "'");
    }

    Totals totals = new Totals();
    boolean epoll = Epoll.isAvailable();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads,
        epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    List<Client> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        Client client = new Client(inFlight, keys, timeoutNanos, totals, i);
        Bootstrap bootstrap = new Bootstrap().group(group)
            .channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
            .handler(client);
        bootstrap.connect(server).sync();
        sockets.add(client);
      }
      System.out.printf("%d UDP client sockets x %d in flight -> %s:%d, %d keys, %d client threads (%s)%n",
          clients, inFlight, host, port, keyCount, threads, epoll ? "epoll" : "NIO");

      Thread.sleep(warmupMillis);
      Snapshot before = totals.snapshot();
      totals.latency.reset();
      long start = System.nanoTime();
      Thread.sleep(durationMillis);
      Snapshot after = totals.snapshot();
      double seconds = (System.nanoTime() - start) / 1e9;
      Histogram latency = totals.latency.getIntervalHistogram();

      // Stop sending; whatever is still unanswered after the timeout is lost too.
      List<Future<?>> finished = new ArrayList<>();
      for (Client client : sockets) {
        finished.add(client.finish());
      }
      for (Future<?> done : finished) {
        done.await(TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + 5_000);
      }
      Snapshot end = totals.snapshot();
      if (totals.failure != null) {
        throw new IOException(totals.failure.getMessage(), totals.failure);
      }
      return report(totals, before, after, end, seconds, latency, timeoutNanos);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
  }

  private static int report(Totals totals, Snapshot before, Snapshot after, Snapshot end, double seconds,
                            Histogram latency, long timeoutNanos) {
    long allowed = after.allowed - before.allowed;
    long refused = after.refused - before.refused;
    long answered = allowed + refused;
    System.out.printf("%,.0f over_limit/s  (%,d replies in %.2f s; %,d Y, %,d N)%n",
        answered / seconds, answered, seconds, refused, allowed);
    System.out.printf("latency us: p50 %.1f  p99 %.1f  p999 %.1f  max %.1f%n",
        latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
        latency.getValueAtPercentile(99.9) / 1e3, latency.getMaxValue() / 1e3);
    System.out.printf("lost (no reply within %d ms): %,d in the measured time, %,d of all %,d requests sent"
            + "; late replies %,d; malformed %,d; unknown id %,d%n",
        TimeUnit.NANOSECONDS.toMillis(timeoutNanos), after.lost - before.lost, end.lost, end.sent, end.late,
        end.malformed, end.unknownId);
    if (end.malformed > 0) {
      System.out.println("first malformed reply: " + totals.firstMalformed);
    }
    return end.malformed == 0 && end.unknownId == 0 ? 0 : 1;
  }

  /** {@code ws ip=198.18.x.y} (the benchmarking range): a strict 22/20 key under the MusicBrainz rules. */
  private static byte[][] keys(int count) {
    byte[][] keys = new byte[count][];
    for (int i = 0; i < count; i++) {
      keys[i] = ("ws ip=198." + (18 + i / 65_536) + "." + (i / 256 % 256) + "." + (i % 256)).getBytes(StandardCharsets.US_ASCII);
    }
    return keys;
  }

  /** Counters shared by every client socket. */
  private static final class Totals {
    final Recorder latency = new Recorder(HIGHEST_LATENCY_NANOS, 3);
    final LongAdder sent = new LongAdder();
    final LongAdder allowed = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder lost = new LongAdder();
    final LongAdder late = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder unknownId = new LongAdder();
    volatile String firstMalformed;
    volatile Exception failure;

    Snapshot snapshot() {
      // Each reply is counted once, as allowed or as refused, so both figures and their sum stay consistent.
      return new Snapshot(sent.sum(), allowed.sum(), refused.sum(), lost.sum(), late.sum(), malformed.sum(), unknownId.sum());
    }
  }

  private record Snapshot(long sent, long allowed, long refused, long lost, long late, long malformed, long unknownId) {
  }

  /**
   * One client socket: its ids and its requests in flight. Netty calls it on the socket's one event
   * loop thread only, so its state needs no locks.
   */
  private static final class Client extends ChannelInboundHandlerAdapter {
    private final int inFlight;
    private final byte[][] keys;
    private final long timeoutNanos;
    private final Totals totals;
    private final SplittableRandom random;
    private final byte[] reply = new byte[BatchedDatagrams.MAX_DATAGRAM];
    /** id → send time, in send order: the head is always the oldest request. */
    private final LinkedHashMap<Long, Long> pending = new LinkedHashMap<>();
    /** Ids that timed out, kept ten timeouts so a late reply is told apart from a wrong one. */
    private final LinkedHashMap<Long, Long> expired = new LinkedHashMap<>();
    private final Promise<Void> finished = ImmediateEventExecutor.INSTANCE.newPromise();
    private ChannelHandlerContext ctx;
    private BatchedDatagrams out;
    private boolean finishing;
    private long nextId = 1;

    Client(int inFlight, byte[][] keys, long timeoutNanos, Totals totals, int index) {
      this.inFlight = inFlight;
      this.keys = keys;
      this.timeoutNanos = timeoutNanos;
      this.totals = totals;
      this.random = new SplittableRandom(index * 0x9E3779B97F4A7C15L + System.nanoTime());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      this.ctx = ctx;
      BatchedDatagrams.configure((DatagramChannel) ctx.channel());
      out = new BatchedDatagrams(ctx);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      long checkEveryNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), timeoutNanos / 10);
      ctx.executor().scheduleAtFixedRate(this::expire, checkEveryNanos, checkEveryNanos, TimeUnit.NANOSECONDS);
      fill();
    }

    /** Stop sending; completes once every request is answered or lost. */
    Future<Void> finish() {
      ctx.executor().execute(() -> {
        finishing = true;
        completeIfIdle();
      });
      return finished;
    }

    private void completeIfIdle() {
      if (finishing && pending.isEmpty()) {
        finished.trySuccess(null);
      }
    }

    /** Writes until {@code inFlight} requests are pending; they leave together after this turn. */
    private void fill() {
      if (finishing) {
        return;
      }
      while (pending.size() < inFlight && ctx.channel().isWritable()) {
        long id = nextId++;
        ByteBuf request = ctx.alloc().ioBuffer(64);
        putDigits(request, id);
        request.writeBytes(OVER_LIMIT).writeBytes(keys[random.nextInt(keys.length)]);
        pending.put(id, System.nanoTime());
        out.write(request);
        totals.sent.increment();
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      long now = System.nanoTime();
      ByteBuf content = ((DatagramPacket) msg).content();
      try {
        int length = Math.min(content.readableBytes(), reply.length);
        content.readBytes(reply, 0, length);
        onReply(length, now);
      } finally {
        ((DatagramPacket) msg).release();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      fill();
      completeIfIdle();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      fill();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      totals.failure = cause instanceof PortUnreachableException
          ? new IOException("nothing listens on the UDP port (ICMP port unreachable)", cause)
          : cause instanceof Exception exception ? exception : new IOException(cause);
      finished.trySuccess(null);
    }

    private void onReply(int length, long now) {
      long id = parseId(reply, length);
      int verdict = id < 0 ? -1 : verdict(reply, length);
      if (verdict < 0) {
        totals.malformed.increment();
        if (totals.firstMalformed == null) {
          totals.firstMalformed = new String(reply, 0, length, StandardCharsets.ISO_8859_1);
        }
        return;
      }
      Long sentAt = pending.remove(id);
      if (sentAt == null) {
        if (expired.remove(id) != null) {
          totals.late.increment();
        } else {
          totals.unknownId.increment();
        }
        return;
      }
      totals.latency.recordValue(Math.min(HIGHEST_LATENCY_NANOS, Math.max(0, now - sentAt)));
      (verdict == 'Y' ? totals.refused : totals.allowed).increment();
    }

    /** Requests older than the timeout are lost; new ones take their place. */
    private void expire() {
      long now = System.nanoTime();
      Iterator<Map.Entry<Long, Long>> oldestFirst = pending.entrySet().iterator();
      while (oldestFirst.hasNext()) {
        Map.Entry<Long, Long> request = oldestFirst.next();
        if (now - request.getValue() < timeoutNanos) {
          break;
        }
        oldestFirst.remove();
        expired.put(request.getKey(), now);
        totals.lost.increment();
      }
      Iterator<Map.Entry<Long, Long>> forgotten = expired.entrySet().iterator();
      while (forgotten.hasNext() && now - forgotten.next().getValue() > 10 * timeoutNanos) {
        forgotten.remove();
      }
      fill();
      completeIfIdle();
    }

    private static void putDigits(ByteBuf out, long value) {
      int start = out.writerIndex();
      long rest = value;
      do {
        out.writeByte('0' + (int) (rest % 10));
        rest /= 10;
      } while (rest > 0);
      for (int i = start, j = out.writerIndex() - 1; i < j; i++, j--) {
        byte swap = out.getByte(i);
        out.setByte(i, out.getByte(j));
        out.setByte(j, swap);
      }
    }

    /** The leading id (at most 18 digits, then one space), or -1. */
    static long parseId(byte[] data, int length) {
      long id = 0;
      int i = 0;
      while (i < length && i < 19 && data[i] != ' ') {
        if (data[i] < '0' || data[i] > '9') {
          return -1;
        }
        id = id * 10 + (data[i] - '0');
        i++;
      }
      return i == 0 || i > 18 || i >= length || data[i] != ' ' ? -1 : id;
    }

    /**
     * The verdict ('Y' or 'N') when everything after the id and its space is exactly
     * {@code ok [YN] <digits>.<digit> <digits>.<digit> <digits>}, else -1.
     */
    static int verdict(byte[] data, int length) {
      int i = 0;
      while (data[i] != ' ') {
        i++;
      }
      if (i + 6 > length || data[i + 1] != 'o' || data[i + 2] != 'k' || data[i + 3] != ' ' || data[i + 5] != ' ') {
        return -1;
      }
      byte verdict = data[i + 4];
      if (verdict != 'Y' && verdict != 'N') {
        return -1;
      }
      i = oneDecimal(data, length, i + 6);
      if (i < 0 || i >= length || data[i] != ' ') {
        return -1;
      }
      i = oneDecimal(data, length, i + 1);
      if (i < 0 || i >= length || data[i] != ' ') {
        return -1;
      }
      int end = digits(data, length, i + 1);
      return end > i + 1 && end == length ? verdict : -1;
    }

    /** The index just past {@code <digits>.<digit>} from {@code from}, or -1. */
    private static int oneDecimal(byte[] data, int length, int from) {
      int dot = digits(data, length, from);
      if (dot == from || dot + 1 >= length || data[dot] != '.') {
        return -1;
      }
      byte tenth = data[dot + 1];
      return tenth >= '0' && tenth <= '9' ? dot + 2 : -1;
    }

    /** The index of the first non-digit from {@code from}. */
    private static int digits(byte[] data, int length, int from) {
      int i = from;
      while (i < length && data[i] >= '0' && data[i] <= '9') {
        i++;
      }
      return i;
    }
  }
}
