package io.sluice.verticles.server.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.CollidingKeys;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 over a real socket: 200,000 eight-byte keys computed to share one shard hash (which
 * also placed buckets before) are stored and read back, and a fresh client is served meanwhile.
 * Before the fix each insert walked one chain of all the keys before it: hundreds of times longer
 * than the deadlines below, which only bound liveness (the cost is asserted as comparisons in
 * HashFloodingTest and measured by ShardBenchmark).
 */
class HashFloodOverTcpTest {

  private static final int KEYS = 200_000;
  private static final int SHARD_HASH = 0x0bad_cafe;
  private static final long FRESH_CLIENT_DEADLINE_SECONDS = 10;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private final byte[][] keys = CollidingKeys.of(new byte[0], SHARD_HASH, KEYS);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  private Conversation connect() {
    return await(TcpConversation.open(vertx, sut.tcpPort()));
  }

  /** The frames of one request per key in {@code [from, to)}. */
  private byte[] frames(int from, int to, Function<byte[], Request> request) {
    ByteBuf out = Unpooled.buffer();
    for (int i = from; i < to; i++) {
      RequestEncoder.encode(out, ValueSize.UINT16, request.apply(keys[i]));
    }
    return ByteBufUtil.getBytes(out);
  }

  private static Request insert(byte[] key) {
    return new Request.Insert(7, TtlUnit.SECONDS.code(), 600, key);
  }

  private static byte[] repeated(String reply, int times) {
    byte[] one = Hex.bytes(reply);
    byte[] all = new byte[one.length * times];
    for (int i = 0; i < times; i++) {
      System.arraycopy(one, 0, all, i * one.length, one.length);
    }
    return all;
  }

  private static <T> T within(long seconds, Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }

  /** A new connection inserts and reads a key of the attacked shard (one more colliding key). */
  private void assertAFreshClientIsServed(String prefix) throws Exception {
    byte[] own = CollidingKeys.of(prefix.getBytes(), SHARD_HASH, 1)[0];
    ByteBuf out = Unpooled.buffer();
    RequestEncoder.encode(out, ValueSize.UINT16, insert(own));
    RequestEncoder.encode(out, ValueSize.UINT16, new Request.Query(own));
    try (Conversation fresh = connect()) {
      await(fresh.send(ByteBufUtil.getBytes(out)));
      byte[] replies = within(FRESH_CLIENT_DEADLINE_SECONDS, fresh.receive(1 + 6));
      assertThat(Hex.of(replies)).isEqualTo("01 01 07 00 04 58 02");
    }
  }

  @Test
  void keysSharingOneShardHashAreStoredAndReadBackWhileOthersAreServed() throws Exception {
    try (Conversation attacker = connect()) {
      await(attacker.send(frames(0, KEYS / 2, HashFloodOverTcpTest::insert)));
      Future<byte[]> stored = attacker.receive(KEYS);
      assertAFreshClientIsServed("during:");
      await(attacker.send(frames(KEYS / 2, KEYS, HashFloodOverTcpTest::insert)));
      assertThat(Arrays.mismatch(await(stored), repeated("01", KEYS))).as("first INSERT not stored").isEqualTo(-1);

      await(attacker.send(frames(0, KEYS, Request.Query::new)));
      byte[] queries = await(attacker.receive(KEYS * 6));
      assertThat(Arrays.mismatch(queries, repeated("01 07 00 04 58 02", KEYS))).as("first wrong QUERY byte").isEqualTo(-1);
    }
    assertAFreshClientIsServed("after:");
  }
}
