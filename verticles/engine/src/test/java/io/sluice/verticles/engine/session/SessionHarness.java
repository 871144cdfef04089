package io.sluice.verticles.engine.session;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.testsupport.Wire;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.ValueSize;

import io.sluice.verticles.engine.channel.Channels;

import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;

/** A session wired to a fake transport, real shards, a real instance and a manual clock. */
final class SessionHarness {

  static final ValueSize SIZE = ValueSize.UINT16;
  static final int MAX_FRAME = 8096;

  final ManualClock clock = new ManualClock();
  final Instance instance;
  final ConnectionStats connection;
  final ThrottrShard[] shards;
  final FakeTransport transport;
  final ThrottrSession session;
  final RequestDecoder decoder;

  SessionHarness(int shardCount, int maxPendingRequests) {
    this(shardCount, maxPendingRequests, false);
  }

  SessionHarness(int shardCount, int maxPendingRequests, boolean writePerRead) {
    this(shardCount, maxPendingRequests, Long.MAX_VALUE, writePerRead);
  }

  /** @param writePerRead as a WebSocket front asks: each read's replies in a write of their own */
  SessionHarness(int shardCount, int maxPendingRequests, long maxPendingBytes, boolean writePerRead) {
    this(shardCount, maxPendingRequests, maxPendingBytes, writePerRead, channels -> channels);
  }

  /** @param channels what the session uses for channels, given the directory-only ones */
  SessionHarness(int shardCount, UnaryOperator<Channels> channels) {
    this(shardCount, 1_000, Long.MAX_VALUE, false, channels);
  }

  private SessionHarness(int shardCount, int maxPendingRequests, long maxPendingBytes, boolean writePerRead,
                         UnaryOperator<Channels> channels) {
    this(shardCount, shardCount, maxPendingRequests, maxPendingBytes, writePerRead, channels);
  }

  /** {@code routes} routes on {@code lanes} shard threads, as a cluster node's partitions are placed. */
  static SessionHarness onLanes(int routes, int lanes) {
    return new SessionHarness(routes, lanes, 1_000, Long.MAX_VALUE, false, channels -> channels);
  }

  private SessionHarness(int shardCount, int lanes, int maxPendingRequests, long maxPendingBytes,
                         boolean writePerRead, UnaryOperator<Channels> channels) {
    instance = Instance.start("9.9.9-test", SIZE, shardCount, clock);
    shards = new ThrottrShard[shardCount];
    for (int i = 0; i < shardCount; i++) {
      shards[i] = new ThrottrShard(new Store(clock, instance.startedAtNanos()), SIZE);
    }
    connection = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "127.0.0.1", 40_001,
        clock.epochNanos());
    instance.connections().add(connection);
    transport = new FakeTransport(shards, lanes);
    session = new ThrottrSession(instance, connection, channels.apply(new DirectoryChannels(instance, connection)),
        transport, transport,
        maxPendingRequests, maxPendingBytes, writePerRead);
    transport.session = session;
    decoder = new RequestDecoder(SIZE, MAX_FRAME, session);
  }

  SessionHarness(int shardCount) {
    this(shardCount, 1_000);
  }

  /** What a front does when the session reads again: decode what was held back, end that read. */
  void readAgain() {
    decoder.resume();
    session.endOfRead();
  }

  /** One socket read holding these frames back to back, then the end of the read. */
  void read(String... frames) {
    decoder.feed(Unpooled.wrappedBuffer(Wire.bytes(String.join(" ", frames))));
    session.endOfRead();
  }

  String idHex() {
    return Wire.hex(connection.id());
  }

  /** The first key {@code prefix + n} that the instance routes to {@code shard}. */
  String keyOn(int shard, String prefix) {
    for (int n = 0; ; n++) {
      String key = prefix + n;
      if (ShardRouter.routeOf(key.getBytes(StandardCharsets.US_ASCII), shards.length) == shard) {
        return key;
      }
    }
  }

  // Frames in uint16 hex.

  static String keyField(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.US_ASCII);
    return String.format("%02x ", bytes.length) + Wire.hex(bytes);
  }

  static String insert(int quota, int ttlSeconds, String key) {
    return String.format("01 %02x %02x 04 %02x %02x ", quota & 0xff, quota >> 8, ttlSeconds & 0xff, ttlSeconds >> 8)
        + keyField(key);
  }

  static String query(String key) {
    return "02 " + keyField(key);
  }

  static String purge(String key) {
    return "04 " + keyField(key);
  }

  static String set(int ttlSeconds, String key, String valueHex) {
    byte[] value = Wire.bytes(valueHex);
    byte[] bytes = key.getBytes(StandardCharsets.US_ASCII);
    return String.format("05 04 %02x %02x %02x %02x %02x ", ttlSeconds & 0xff, ttlSeconds >> 8, bytes.length,
        value.length & 0xff, value.length >> 8) + Wire.hex(bytes) + " " + valueHex;
  }

  /** The QUERY reply for a seconds record. */
  static String queryReply(int quota, int ttlSeconds) {
    return String.format("01 %02x %02x 04 %02x %02x", quota & 0xff, quota >> 8, ttlSeconds & 0xff, ttlSeconds >> 8);
  }

  static final String WHOAMI = "18";
  static final String LIST = "07";
  static final String INFO = "08";
  static final String STATS = "10";
  static final String CONNECTIONS = "14";
}
