package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 12: keys computed to share one shard hash, the function that also placed buckets before,
 * made every insert walk one chain of all of them. The cost of a lookup is asserted as key
 * comparisons, never as time.
 */
class HashFloodingTest {

  private static final int KEYS = 50_000;
  private static final long HOUR = Duration.ofHours(1).toNanos();

  private final ManualClock clock = new ManualClock();

  /** What a red-black tree of n keys can cost at most: its height, 2·log2(n + 1). */
  private static long treeBound(int n) {
    return 2L * (32 - Integer.numberOfLeadingZeros(n + 1));
  }

  /** Throttr keys, the check API's rl:POLICY:KEY and UDP's udp:KEY are all chosen by clients. */
  @ParameterizedTest
  @ValueSource(strings = {"", "rl:login:", "udp:"})
  void keysSharingOneShardHashSpreadOverTheBuckets(String prefix) {
    Store store = new Store(clock, clock.epochNanos());
    byte[][] keys = CollidingKeys.of(prefix.getBytes(StandardCharsets.US_ASCII), 0x5eed, KEYS);
    long now = clock.epochNanos();
    for (byte[] key : keys) {
      int hash = store.hash(key);
      assertThat(store.find(key, hash, now)).isNull();
      store.createCounter(key, hash, 1, 0x04, now + HOUR, now);
    }

    RecordTable table = store.table();
    assertThat(table.size()).isEqualTo(KEYS);
    long worst = 0;
    for (byte[] key : keys) {
      assertThat(store.find(key, store.hash(key), now).key()).isSameAs(key);
      worst = Math.max(worst, table.comparisonsToFind(key));
    }
    // As for random keys: a few records per bucket at most, so lookups cost a few comparisons.
    assertThat(worst).isLessThan(RecordTable.TREEIFY_AT);
    assertThat(table.binnedRecords()).isLessThan(KEYS / 100);
  }

  /** The guard for a beaten table hash: even when every key has the same one, a lookup is logarithmic. */
  @Test
  void keysSharingTheTableHashItselfCostLogarithmicComparisons() {
    RecordTable table = new RecordTable(key -> 7);
    Record[] records = new Record[KEYS];
    for (int i = 0; i < KEYS; i++) {
      records[i] = new Record(("k" + i).getBytes(StandardCharsets.US_ASCII), 0);
      table.add(records[i], 7);
    }

    assertThat(table.capacity()).isGreaterThanOrEqualTo(KEYS);
    assertThat(table.binnedRecords()).isEqualTo(KEYS);
    for (int i = 0; i < KEYS; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.US_ASCII);
      assertThat(table.get(key, 7)).isSameAs(records[i]);
      assertThat(table.comparisonsToFind(key)).isLessThanOrEqualTo(treeBound(KEYS));
    }
    assertThat(table.get("absent".getBytes(StandardCharsets.US_ASCII), 7)).isNull();
    assertThat(table.comparisonsToFind("absent".getBytes(StandardCharsets.US_ASCII))).isLessThanOrEqualTo(treeBound(KEYS));

    for (int i = RecordTable.UNTREEIFY_AT; i < KEYS; i++) {
      assertThat(table.remove(records[i])).isTrue();
    }
    assertThat(table.binnedRecords()).as("a small bin is a chain again").isZero();
    assertThat(table.longestChain()).isEqualTo(RecordTable.UNTREEIFY_AT);
    for (int i = 0; i < RecordTable.UNTREEIFY_AT; i++) {
      assertThat(table.get(records[i].key(), 7)).isSameAs(records[i]);
    }
  }
}
