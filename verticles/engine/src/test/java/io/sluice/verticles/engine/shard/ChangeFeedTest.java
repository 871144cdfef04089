package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.verticles.engine.storage.ChangeListener;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.storage.Store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * Every change a shard makes reaches its store's listener, and the images of those changes,
 * applied in order to another store, rebuild exactly the same records: what a backup and a
 * replayed log rely on.
 */
class ChangeFeedTest {

  private final ShardFixture owner = new ShardFixture();
  private final Store replica = new Store(owner.clock, owner.clock.epochNanos());
  private final ByteBuf shipped = Unpooled.buffer();
  private final List<String> events = new ArrayList<>();

  ChangeFeedTest() {
    owner.store.listen(new ChangeListener() {
      @Override
      public void changed(Record record) {
        events.add("changed " + text(record.key()));
        RecordImage.writeState(shipped, record);
      }

      @Override
      public void removed(Record record) {
        events.add("removed " + text(record.key()));
        RecordImage.writeRemoval(shipped, record.key());
      }
    });
  }

  @Test
  void everyWriteIsReportedAndNoReadOrExpiryIs() {
    owner.execute(
        new Request.Insert(5, 4, 60, key("c")),
        new Request.Insert(5, 4, 60, key("c")), // refused: exists
        new Request.Query(key("c")),
        new Request.Update(Request.Update.ATTRIBUTE_QUOTA, Request.Update.CHANGE_DECREASE, 2, key("c")),
        new Request.Update(Request.Update.ATTRIBUTE_QUOTA, Request.Update.CHANGE_DECREASE, 9, key("c")), // refused
        new Request.Update(Request.Update.ATTRIBUTE_TTL, Request.Update.CHANGE_INCREASE, 5, key("c")),
        new Request.Set(4, 1, key("b"), key("v")),
        new Request.Get(key("b")),
        new Request.Stat(key("b")),
        new Request.Purge(key("c")),
        new Request.Purge(key("c"))); // refused: gone
    owner.advance(Duration.ofSeconds(2)); // "b" expires
    owner.store.sweep(1 << 20);

    assertThat(events).containsExactly(
        "changed c", "changed c", "changed c", "changed b", "removed c");
  }

  @Test
  void aTasksPutAndRemoveAreReported() {
    ShardBatch batch = new ShardBatch(0);
    batch.add(new PutThenRemove());
    owner.shard.execute(batch);

    assertThat(events).containsExactly("changed t", "removed t");
  }

  @Test
  void imagesAppliedInOrderRebuildTheSameRecords() {
    Random random = new Random(7);
    for (int step = 0; step < 5_000; step++) {
      byte[] key = key("k" + random.nextInt(40));
      Request request = switch (random.nextInt(7)) {
        case 0 -> new Request.Insert(random.nextInt(100), 4, 1 + random.nextInt(30), key);
        case 1 -> new Request.Update(Request.Update.ATTRIBUTE_QUOTA, random.nextInt(3), random.nextInt(50), key);
        case 2 -> new Request.Update(Request.Update.ATTRIBUTE_TTL, random.nextInt(3), random.nextInt(20), key);
        case 3 -> new Request.Set(4, 1 + random.nextInt(30), key, key("v" + random.nextInt(1000)));
        case 4 -> new Request.Purge(key);
        case 5 -> new Request.Insert(random.nextInt(100), 3, 1 + random.nextInt(30_000), key);
        default -> new Request.Query(key);
      };
      owner.execute(request);
      if (random.nextInt(50) == 0) {
        owner.advance(Duration.ofMillis(random.nextInt(3_000)));
      }
    }
    while (shipped.isReadable()) {
      RecordImage.apply(shipped, replica);
    }

    assertThat(contents(replica)).isEqualTo(contents(owner.store)).isNotEmpty();
  }

  @Test
  void anImageReplacesARecordOfTheOtherKindAndARemovalOfAnAbsentKeyIsHarmless() {
    owner.execute(new Request.Insert(5, 4, 60, key("x")), new Request.Purge(key("x")),
        new Request.Set(4, 60, key("x"), key("buffer")), new Request.Purge(key("absent")));
    replica.restoreCounter(key("x"), 4, owner.clock.epochNanos() + 1, 99);

    while (shipped.isReadable()) {
      RecordImage.apply(shipped, replica);
    }

    assertThat(contents(replica)).isEqualTo(contents(owner.store));
  }

  /**
   * An eviction is a removal in the feed, so a backup and the append-only log drop the evicted key
   * as they drop a purged one, and a replica rebuilt from the images holds what the bounded store
   * holds.
   */
  @Test
  void evictionsReachTheFeedAsRemovalsAndReplicasFollowThem() {
    Store bounded = new Store(owner.clock, owner.clock.epochNanos(),
        new io.sluice.verticles.engine.storage.StoreLimits(100, io.sluice.verticles.engine.storage.StoreLimits.UNLIMITED,
            io.sluice.verticles.engine.storage.Eviction.VOLATILE_TTL));
    List<String> removed = new ArrayList<>();
    ByteBuf images = Unpooled.buffer();
    bounded.listen(new ChangeListener() {
      @Override
      public void changed(Record record) {
        RecordImage.writeState(images, record);
      }

      @Override
      public void removed(Record record) {
        removed.add(text(record.key()));
        RecordImage.writeRemoval(images, record.key());
      }
    });
    ThrottrShard shard = new ThrottrShard(bounded, owner.size);
    for (int i = 0; i < 1_000; i++) {
      ShardBatch batch = new ShardBatch(0);
      batch.add(new Request.Insert(1, 4, 10 + i, key("k" + i)));
      shard.execute(batch);
    }
    while (images.isReadable()) {
      RecordImage.apply(images, replica);
    }

    assertThat(bounded.size()).isLessThanOrEqualTo(100);
    assertThat(removed).hasSize(1_000 - bounded.size());
    assertThat(contents(replica)).isEqualTo(contents(bounded));
  }

  @Test
  void aCutImageIsRefusedAndLeavesTheReaderWhereItWas() {
    owner.execute(new Request.Set(4, 60, key("k"), key("value")));
    ByteBuf cut = shipped.slice(0, shipped.readableBytes() - 1);

    assertThatThrownBy(() -> RecordImage.apply(cut, replica))
        .isInstanceOf(RecordImage.MalformedImageException.class);
    assertThat(cut.readerIndex()).isZero();
    assertThat(replica.size()).isZero();
  }

  /** Every live record as text, by key. */
  private static TreeMap<String, String> contents(Store store) {
    TreeMap<String, String> all = new TreeMap<>();
    store.forEachLive(r -> all.put(text(r.key()), r.kind() + " " + r.ttlType() + " " + r.expiresAtNanos() + " "
        + r.counter() + " " + Arrays.toString(r.buffer())));
    return all;
  }

  private static final class PutThenRemove implements ShardTask {
    @Override
    public byte[] key() {
      return ChangeFeedTest.key("t");
    }

    @Override
    public void run(KeyState state, long nowNanos) {
      state.put(ChangeFeedTest.key("s"), 1_000_000_000L);
      state.remove();
    }

    @Override
    public void failed(Throwable error) {
      throw new AssertionError(error);
    }
  }

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.US_ASCII);
  }
}
