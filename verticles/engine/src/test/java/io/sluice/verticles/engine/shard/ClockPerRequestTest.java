package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Each request of a batch reads the clock when it runs, as time passes between pipelined requests:
 * a QUERY right after an INSERT of 60 s reads 59 (floor), as clients expect.
 */
class ClockPerRequestTest {

  /** Moves forward a fixed step every time it is read, like time passing between requests. */
  private static final class SteppingClock implements Clock {
    long next = 1_767_225_600_000_000_000L;
    long step = TimeUnit.MILLISECONDS.toNanos(1);

    @Override
    public long epochNanos() {
      long now = next;
      next += step;
      return now;
    }
  }

  private final SteppingClock clock = new SteppingClock();
  private final Store store = new Store(clock, clock.next);
  private final ThrottrShard shard = new ThrottrShard(store, ValueSize.UINT16);

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void queryPipelinedAfterInsertInOneBatchReadsAFlooredTtl() {
    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Insert(10, 0x04, 60, key("abc")));
    batch.add(new Request.Query(key("abc")));
    shard.execute(batch);

    assertThat(ShardFixture.replies(batch)).containsExactly("01", "01 0a 00 04 3b 00");
  }

  @Test
  void recordExpiringBetweenTwoRequestsOfABatchIsSeenByTheFirstOnly() {
    clock.step = 1;
    long first = clock.next;
    store.createCounter(key("k"), store.hash(key("k")), 1, 0x01, first + 1, first);

    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Query(key("k")));
    batch.add(new Request.Query(key("k")));
    clock.next = first;
    shard.execute(batch);

    assertThat(ShardFixture.replies(batch)).containsExactly("01 01 00 01 01 00", "00");
  }

  @Test
  void listingInABatchSeesRecordsCreatedEarlierInIt() {
    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Insert(1, 0x04, 60, key("a")));
    batch.add(Request.Bare.LIST);
    shard.execute(batch);

    assertThat(ShardFixture.collected(batch, 1).keys()).hasSize(1);
  }
}
