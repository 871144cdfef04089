package io.sluice.gateway.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
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
 * <p>Unlike the TCP benches it runs on plain NIO (non-blocking connected datagram channels, one
 * selector thread per core) rather than Vert.x: a datagram costs a system call each way whatever
 * the client, and the load tool shares the machine with the server, so it must cost the server as
 * little CPU as possible.
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
    List<Loop> loops = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      loops.add(new Loop(t, timeoutNanos, totals));
    }
    for (int i = 0; i < clients; i++) {
      loops.get(i % threads).add(new Client(server, inFlight, keys, timeoutNanos, totals, i));
    }
    loops.forEach(Thread::start);
    System.out.printf("%d UDP client sockets x %d in flight -> %s:%d, %d keys, %d client threads%n",
        clients, inFlight, host, port, keyCount, threads);

    Thread.sleep(warmupMillis);
    Snapshot before = totals.snapshot();
    totals.latency.reset();
    long start = System.nanoTime();
    Thread.sleep(durationMillis);
    Snapshot after = totals.snapshot();
    double seconds = (System.nanoTime() - start) / 1e9;
    Histogram latency = totals.latency.getIntervalHistogram();

    // Stop sending; whatever is still unanswered after the timeout is lost too.
    loops.forEach(Loop::finish);
    for (Loop loop : loops) {
      loop.join(TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + 5_000);
    }
    Snapshot end = totals.snapshot();
    if (totals.failure != null) {
      throw new IOException(totals.failure.getMessage(), totals.failure);
    }

    long answered = after.answered - before.answered;
    long refused = after.refused - before.refused;
    System.out.printf("%,.0f over_limit/s  (%,d replies in %.2f s; %,d Y, %,d N)%n",
        answered / seconds, answered, seconds, refused, answered - refused);
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
    final LongAdder answered = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder lost = new LongAdder();
    final LongAdder late = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder unknownId = new LongAdder();
    volatile String firstMalformed;
    volatile Exception failure;

    Snapshot snapshot() {
      return new Snapshot(sent.sum(), answered.sum(), refused.sum(), lost.sum(), late.sum(), malformed.sum(), unknownId.sum());
    }
  }

  private record Snapshot(long sent, long answered, long refused, long lost, long late, long malformed, long unknownId) {
  }

  /** One thread serving some client sockets through a selector; it alone touches their state. */
  private static final class Loop extends Thread {
    private final Selector selector;
    private final List<Client> clients = new ArrayList<>();
    private final long checkEveryNanos;
    private final Totals totals;
    private volatile boolean finishing;

    Loop(int index, long timeoutNanos, Totals totals) throws IOException {
      super("udp-bench-" + index);
      setDaemon(true);
      this.selector = Selector.open();
      this.checkEveryNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), timeoutNanos / 10);
      this.totals = totals;
    }

    void add(Client client) throws IOException {
      client.channel.register(selector, SelectionKey.OP_READ, client);
      clients.add(client);
    }

    /** Stop sending; end once every request is answered or lost. */
    void finish() {
      finishing = true;
      selector.wakeup();
    }

    @Override
    public void run() {
      try {
        clients.forEach(Client::fill);
        long nextCheck = System.nanoTime() + checkEveryNanos;
        while (true) {
          selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(checkEveryNanos)));
          Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
          while (ready.hasNext()) {
            Client client = (Client) ready.next().attachment();
            ready.remove();
            client.drain(finishing);
          }
          long now = System.nanoTime();
          if (now - nextCheck >= 0) {
            nextCheck = now + checkEveryNanos;
            for (Client client : clients) {
              client.expire(now, finishing);
            }
          }
          if (finishing && clients.stream().allMatch(Client::idle)) {
            break;
          }
        }
      } catch (PortUnreachableException e) {
        totals.failure = new IOException("nothing listens on the UDP port (ICMP port unreachable)", e);
      } catch (IOException | UncheckedIOException e) {
        IOException cause = e instanceof UncheckedIOException ? ((UncheckedIOException) e).getCause() : (IOException) e;
        totals.failure = cause instanceof PortUnreachableException
            ? new IOException("nothing listens on the UDP port (ICMP port unreachable)", cause) : cause;
      } finally {
        for (Client client : clients) {
          client.close();
        }
        try {
          selector.close();
        } catch (IOException ignored) {
          // Closing: nothing left to do.
        }
      }
    }
  }

  /** One client socket: its ids and its requests in flight, oldest first. */
  private static final class Client {
    private final DatagramChannel channel;
    private final int inFlight;
    private final byte[][] keys;
    private final long timeoutNanos;
    private final Totals totals;
    private final SplittableRandom random;
    private final ByteBuffer in = ByteBuffer.allocateDirect(2048);
    private final ByteBuffer out = ByteBuffer.allocateDirect(2048);
    private final byte[] reply = new byte[2048];
    /** id → send time, in send order: the head is always the oldest request. */
    private final LinkedHashMap<Long, Long> pending = new LinkedHashMap<>();
    /** Ids that timed out, kept ten timeouts so a late reply is told apart from a wrong one. */
    private final LinkedHashMap<Long, Long> expired = new LinkedHashMap<>();
    private long nextId = 1;

    Client(InetSocketAddress server, int inFlight, byte[][] keys, long timeoutNanos, Totals totals, int index) throws IOException {
      this.channel = DatagramChannel.open();
      this.channel.configureBlocking(false);
      this.channel.connect(server);
      this.inFlight = inFlight;
      this.keys = keys;
      this.timeoutNanos = timeoutNanos;
      this.totals = totals;
      this.random = new SplittableRandom(index * 0x9E3779B97F4A7C15L + System.nanoTime());
    }

    boolean idle() {
      return pending.isEmpty();
    }

    void close() {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Closing: nothing left to do.
      }
    }

    /** Sends until {@code inFlight} requests are pending (or the socket buffer is full). */
    void fill() {
      while (pending.size() < inFlight) {
        long id = nextId;
        out.clear();
        putDigits(out, id);
        out.put(OVER_LIMIT).put(keys[random.nextInt(keys.length)]).flip();
        long now = System.nanoTime();
        int written;
        try {
          written = channel.write(out);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        if (written == 0) {
          return; // send buffer full: the next reply or timer tick sends again
        }
        nextId++;
        pending.put(id, now);
        totals.sent.increment();
      }
    }

    /** Reads every datagram waiting, then refills the window. */
    void drain(boolean finishing) throws IOException {
      while (true) {
        in.clear();
        int length = channel.read(in);
        if (length <= 0) {
          break;
        }
        long now = System.nanoTime();
        in.flip();
        in.get(reply, 0, length);
        onReply(length, now);
      }
      if (!finishing) {
        fill();
      }
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
      totals.answered.increment();
      if (verdict == 'Y') {
        totals.refused.increment();
      }
    }

    /** Requests older than the timeout are lost; new ones take their place. */
    void expire(long now, boolean finishing) {
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
      if (!finishing) {
        fill();
      }
    }

    private static void putDigits(ByteBuffer out, long value) {
      int start = out.position();
      long rest = value;
      do {
        out.put((byte) ('0' + rest % 10));
        rest /= 10;
      } while (rest > 0);
      for (int i = start, j = out.position() - 1; i < j; i++, j--) {
        byte swap = out.get(i);
        out.put(i, out.get(j));
        out.put(j, swap);
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
