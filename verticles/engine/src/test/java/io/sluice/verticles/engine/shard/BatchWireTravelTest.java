package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.browse.KeyPage;
import io.sluice.verticles.engine.browse.KeyPageScan;
import io.sluice.verticles.engine.browse.KeyPageScanCodec;
import io.sluice.verticles.engine.browse.KeySummary;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Lookups, result tasks and sliced scans through {@link BatchWire} to a shard standing for a key's
 * owner on another node: the sender's entries end up as if they had run on a local shard.
 */
class BatchWireTravelTest {

  private final ShardFixture owner = new ShardFixture();
  private final ShardFixture local = new ShardFixture();
  private final BatchWire wire = new BatchWire(ValueSize.UINT16,
      TaskCodecs.of(List.of(new DoublingCodec())).withScans(List.of(new KeyPageScanCodec())));

  /** Answers twice a buffer's length; refuses a counter. */
  static final class Doubling extends ResultTask<Long> {
    Doubling(byte[] key) {
      super(key);
    }

    @Override
    protected Long compute(KeyState state, long nowNanos) {
      if (state.isCounter()) {
        return refuse(new IllegalStateException("a counter"));
      }
      return 2L * state.value().length;
    }
  }

  static final class DoublingCodec extends LongResultCodec<Doubling> {
    DoublingCodec() {
      super(7, Doubling.class, Doubling::new);
    }
  }

  /** Sends {@code batch} through the wire to the owner's shard and reads the results back into it. */
  private void travel(ShardBatch batch) {
    assertThat(wire.canTravel(batch)).isTrue();
    ByteBuf out = Unpooled.buffer();
    wire.writeBatch(out, batch);
    ShardBatch there = wire.readBatch(out);
    owner.shard.execute(there);
    ByteBuf back = Unpooled.buffer();
    wire.writeResults(back, there);
    assertThat(wire.readResults(back, batch)).isTrue();
    assertThat(back.isReadable()).isFalse();
  }

  private static void insert(ShardFixture shard, String key, long quota) {
    shard.execute(new Request.Insert(quota, TtlUnit.SECONDS.code(), 60, bytes(key)));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aLookupComesBackWithTheOwnersRecordOrWithout() {
    insert(owner, "there", 7);
    owner.execute(new Request.Set(TtlUnit.SECONDS.code(), 30, bytes("buffer"), bytes("hello")));
    KeyLookup counter = new KeyLookup(bytes("there"));
    KeyLookup buffer = new KeyLookup(bytes("buffer"));
    KeyLookup absent = new KeyLookup(bytes("absent"));
    ShardBatch batch = new ShardBatch(0);
    batch.add(counter);
    batch.add(buffer);
    batch.add(absent);
    travel(batch);

    assertThat(counter.detail().counter()).isTrue();
    assertThat(counter.detail().quota()).isEqualTo(7);
    assertThat(counter.detail().ttl()).isEqualTo(60);
    assertThat(new String(buffer.detail().buffer(), StandardCharsets.UTF_8)).isEqualTo("hello");
    assertThat(absent.detail()).isNull();
  }

  @Test
  void aResultTaskAnswersItsResultOrItsRefusal() {
    insert(owner, "counter", 1);
    owner.execute(new Request.Set(TtlUnit.SECONDS.code(), 30, bytes("buffer"), new byte[21]));
    Doubling doubled = new Doubling(bytes("buffer"));
    Doubling refused = new Doubling(bytes("counter"));
    ShardBatch batch = new ShardBatch(0);
    batch.add(doubled);
    batch.add(refused);
    travel(batch);

    assertThat(doubled.failure()).isNull();
    assertThat(doubled.result()).isEqualTo(42);
    assertThat(refused.failure()).hasMessageContaining("a counter");
  }

  @Test
  void aKeyPageWalkedSliceBySliceOnTheOwnerEqualsOneWalkedHere() {
    int keys = 3 * SlicedScan.WORK_PER_SLICE;
    for (int i = 0; i < keys; i++) {
      insert(owner, "key:" + i, 1);
      insert(local, "key:" + i, 1);
    }
    byte[] after = bytes("key:2");
    KeyPageScan remote = new KeyPageScan(bytes("1"), after, 30);
    SlicedScan travelling = new SlicedScan(remote);
    while (!travelling.finished()) {
      ShardBatch batch = new ShardBatch(0);
      batch.add(travelling);
      travel(batch);
    }
    KeyPageScan here = new KeyPageScan(bytes("1"), after, 30);
    SlicedScan walked = new SlicedScan(here);
    while (!walked.finished()) {
      ShardBatch batch = new ShardBatch(0);
      batch.add(walked);
      local.shard.execute(batch);
    }

    KeyPage expected = KeyPage.merge(List.of(here), 10, 20);
    KeyPage page = KeyPage.merge(List.of(remote), 10, 20);
    assertThat(travelling.slices()).isEqualTo(walked.slices()).isGreaterThan(1);
    assertThat(page.total()).isEqualTo(expected.total()).isPositive();
    assertThat(page.offset()).isEqualTo(expected.offset());
    assertThat(page.items().stream().map(KeySummary::key).map(String::new).toList())
        .isEqualTo(expected.items().stream().map(KeySummary::key).map(String::new).toList()).hasSize(20);
  }

  @Test
  void everyKindOfWorkComesBackAsIfItHadRunHere() {
    for (ShardFixture shard : List.of(owner, local)) {
      insert(shard, "k", 5);
      shard.execute(new Request.Set(TtlUnit.SECONDS.code(), 30, bytes("buffer"), new byte[4]));
    }
    ShardBatch travelled = everyKind();
    travel(travelled);
    ShardBatch here = everyKind();
    local.shard.execute(here);

    assertThat(ShardFixture.replies(travelled)).isEqualTo(ShardFixture.replies(here)).hasSize(9);
    // Each store seeds its own hash, so the two list their keys in their own orders.
    assertThat(ShardFixture.collectedKeys(travelled, 2)).containsExactlyInAnyOrder("k", "buffer");
    assertThat(ShardFixture.collectedKeys(here, 2)).containsExactlyInAnyOrder("k", "buffer");
    assertThat(ShardFixture.collected(travelled, 3).keyStats()).hasSize(2);
    assertThat(travelled.collected(3)).isInstanceOf(ShardListing.KeyStats.class);
    assertThat(travelled.collected(4)).isEqualTo(here.collected(4)).isInstanceOf(ShardSummary.class);
    assertThat(((KeyLookup) travelled.entry(5)).detail().quota()).isEqualTo(5);
    assertThat(((Doubling) travelled.entry(6)).result()).isEqualTo(8);
    KeyPage whole = KeyPage.merge(List.of((KeyPageScan) travelled.entry(7)), 0, 10);
    assertThat(whole.total()).isEqualTo(2);
    assertThat(((SlicedScan) travelled.entry(8)).finished()).isTrue();
  }

  /** One entry of every kind that travels: requests (a key request and every listing), a lookup, a task, a scan, a slice. */
  private static ShardBatch everyKind() {
    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Query(bytes("k")));
    batch.add(new Request.Get(bytes("buffer")));
    batch.add(Request.Bare.LIST);
    batch.add(Request.Bare.STATS);
    batch.add(Request.Bare.INFO);
    batch.add(new KeyLookup(bytes("k")));
    batch.add(new Doubling(bytes("buffer")));
    batch.add(new KeyPageScan(new byte[0], null, 10));
    batch.add(new SlicedScan(new KeyPageScan(new byte[0], null, 10)));
    return batch;
  }

  @Test
  void storeWorkAndScansWithoutACodecStayOnTheirNode() {
    ShardBatch work = new ShardBatch(0);
    work.add((StoreWork) store -> { });
    ShardBatch scan = new ShardBatch(0);
    scan.add((ShardScan) record -> { });
    assertThat(wire.canTravel(work)).isFalse();
    assertThat(wire.canTravel(scan)).isFalse();
  }
}
