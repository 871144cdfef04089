package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** A sliced scan runs one bounded slice per batch, with other requests between, and sees every key once. */
class SlicedScanTest {

  private final ShardFixture f = new ShardFixture();

  private void insert(String key) {
    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Insert(1, TtlUnit.SECONDS.code(), 60, key.getBytes(StandardCharsets.US_ASCII)));
    f.shard.execute(batch);
  }

  @Test
  void eachBatchRunsOneSliceUntilEveryKeyWasSeenOnce() {
    int keys = 3 * SlicedScan.WORK_PER_SLICE;
    for (int i = 0; i < keys; i++) {
      insert("old:" + i);
    }
    Map<String, Integer> seen = new HashMap<>();
    SlicedScan scan = new SlicedScan(r -> seen.merge(new String(r.key(), StandardCharsets.US_ASCII), 1, Integer::sum));
    int inserted = 0;
    while (!scan.finished()) {
      int before = seen.size();
      ShardBatch batch = new ShardBatch(0);
      batch.add(scan);
      f.shard.execute(batch);
      assertThat(seen.size() - before).isLessThanOrEqualTo(SlicedScan.WORK_PER_SLICE);
      insert("new:" + inserted++);
    }

    assertThat(scan.slices()).isGreaterThan(keys / SlicedScan.WORK_PER_SLICE);
    for (int i = 0; i < keys; i++) {
      assertThat(seen.get("old:" + i)).as("old:%d", i).isEqualTo(1);
    }
    assertThat(seen.values()).containsOnly(1);
  }
}
