package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

/**
 * A batch gathering the requests of several partitions that share a shard thread: each entry runs
 * on its partition's store, one whose partition is not served comes back unrun alone, and a batch
 * split over several places (or sent again for its unrun entries) is joined back slot for slot.
 */
class GatheredBatchTest {

  private static final String SUCCESS = "01";
  private static final String FAILURE = "00";

  private final ShardFixture[] partitions = {new ShardFixture(), new ShardFixture(), new ShardFixture()};
  private final IntFunction<ThrottrShard> every = p -> partitions[p].shard;
  private final BatchWire wire = new BatchWire(ValueSize.UINT16, TaskCodecs.of(List.of()));

  private static Request insert(String key) {
    return new Request.Insert(5, TtlUnit.SECONDS.code(), 60, key.getBytes(StandardCharsets.UTF_8));
  }

  private static Request query(String key) {
    return new Request.Query(key.getBytes(StandardCharsets.UTF_8));
  }

  /** INSERT a0, INSERT b1, QUERY a0, INSERT c2, QUERY b1, INSERT a0 again: the key's partition is its digit. */
  private static ShardBatch mixedRead() {
    ShardBatch batch = ShardBatch.gathered(0);
    batch.add(insert("a0"), 0);
    batch.add(insert("b1"), 1);
    batch.add(query("a0"), 0);
    batch.add(insert("c2"), 2);
    batch.add(query("b1"), 1);
    batch.add(insert("a0"), 0);
    return batch;
  }

  @Test
  void eachEntryRunsOnItsPartitionsStore() {
    ShardBatch batch = mixedRead();
    ThrottrShard.execute(batch, every);

    List<String> replies = ShardFixture.replies(batch);
    assertThat(replies.get(0)).isEqualTo(SUCCESS);
    assertThat(replies.get(2)).startsWith(SUCCESS);
    assertThat(replies.get(5)).as("a0 exists already").isEqualTo(FAILURE);
    assertThat(partitions[0].store.size()).isEqualTo(1);
    assertThat(partitions[1].store.size()).isEqualTo(1);
    assertThat(partitions[2].store.size()).isEqualTo(1);
    assertThat(batch.unrunEntries()).isZero();
  }

  @Test
  void theEntriesOfAPartitionNotServedComeBackUnrunAndTheOthersRun() {
    ShardBatch batch = mixedRead();
    ThrottrShard.execute(batch, p -> p == 1 ? null : partitions[p].shard);

    List<String> replies = ShardFixture.replies(batch);
    assertThat(batch.unrunEntries()).isEqualTo(2);
    assertThat(batch.notRun(1)).isTrue();
    assertThat(batch.notRun(4)).isTrue();
    assertThat(replies.get(1)).isEmpty();
    assertThat(replies.get(4)).isEmpty();
    assertThat(replies.get(0)).isEqualTo(SUCCESS);
    assertThat(partitions[1].store.size()).isZero();
    assertThat(batch.notRun()).as("the batch as a whole ran").isFalse();
  }

  @Test
  void aBatchSplitByPlaceAndJoinedAnswersAsTheWholeWould() {
    ShardBatch whole = mixedRead();
    ShardFixture[] elsewhere = {new ShardFixture(), new ShardFixture(), new ShardFixture()};
    ThrottrShard.execute(whole, p -> elsewhere[p].shard);

    ShardBatch split = mixedRead();
    BatchSplit parts = BatchSplit.by(split, slot -> split.partitionOf(slot) == 1 ? 1 : 0);
    assertThat(parts.toSend()).hasSize(2);
    assertThat(parts.toSend().get(1).size()).isEqualTo(2);
    // The second part comes back first: the join does not depend on the order parts return in.
    for (int i = parts.toSend().size() - 1; i >= 0; i--) {
      ShardBatch part = parts.toSend().get(i);
      ThrottrShard.execute(part, every);
      parts.filled(i, part);
    }
    ShardBatch joined = parts.join();

    assertThat(joined.route()).isEqualTo(split.route());
    assertThat(joined.size()).isEqualTo(split.size());
    assertThat(ShardFixture.replies(joined)).isEqualTo(ShardFixture.replies(whole));
  }

  @Test
  void theUnrunEntriesSentAgainAreJoinedWithTheRepliesTheOthersHad() {
    ShardBatch batch = mixedRead();
    ThrottrShard.execute(batch, p -> p == 0 ? null : partitions[p].shard);

    BatchSplit again = BatchSplit.unrunOf(batch);
    assertThat(again.toSend()).hasSize(1);
    ShardBatch rerun = again.toSend().get(0);
    assertThat(rerun.size()).isEqualTo(3);
    ThrottrShard.execute(rerun, every);
    again.filled(0, rerun);
    ShardBatch joined = again.join();

    List<String> replies = ShardFixture.replies(joined);
    assertThat(joined.unrunEntries()).isZero();
    // a0's requests kept their order among themselves: INSERT, QUERY, then the INSERT refused.
    assertThat(replies.get(0)).isEqualTo(SUCCESS);
    assertThat(replies.get(2)).startsWith(SUCCESS).hasSizeGreaterThan(2);
    assertThat(replies.get(5)).isEqualTo(FAILURE);
    assertThat(replies.subList(1, 2)).containsExactly(SUCCESS);
    assertThat(replies.get(3)).isEqualTo(SUCCESS);
  }

  @Test
  void aGatheredBatchTravelsWithItsPartitionsAndItsUnrunEntries() {
    ShardBatch batch = mixedRead();
    ByteBuf out = Unpooled.buffer();
    wire.writeBatch(out, batch);
    ShardBatch there = wire.readBatch(out);
    assertThat(there.isGathered()).isTrue();
    for (int slot = 0; slot < batch.size(); slot++) {
      assertThat(there.partitionOf(slot)).isEqualTo(batch.partitionOf(slot));
    }
    ThrottrShard.execute(there, p -> p == 2 ? null : partitions[p].shard);

    ByteBuf back = Unpooled.buffer();
    wire.writeResults(back, there);
    assertThat(wire.readResults(back, batch)).isTrue();
    assertThat(back.isReadable()).isFalse();
    assertThat(ShardFixture.replies(batch)).isEqualTo(ShardFixture.replies(there));
    assertThat(batch.notRun(3)).isTrue();
    assertThat(batch.unrunEntries()).isEqualTo(1);
  }

  @Test
  void aGatheredBatchCarriesThrottrRequestsOnly() {
    ShardBatch batch = ShardBatch.gathered(0);
    assertThatThrownBy(() -> batch.add(new KeyLookup("k".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(IllegalStateException.class);

    // A forged message: a gathered batch whose entry is a lookup (kind 3) is refused whole.
    ByteBuf forged = Unpooled.buffer();
    forged.writeByte(BatchWire.VERSION).writeShortLE(0).writeShortLE(1).writeBoolean(true);
    forged.writeShortLE(4).writeByte(3);
    BatchWire.writeBytes(forged, "k".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> wire.readBatch(forged))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Throttr requests only");
  }
}
