package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The memory estimate --max-memory holds the records to is what they take on the heap: 200,000
 * counters with 16-byte keys, live heap measured after full collections before and after.
 */
class RecordEstimateTest {

  private static final int RECORDS = 200_000;

  @Test
  void aCounterTakesWhatItsEstimateSays() {
    ManualClock clock = new ManualClock();
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = liveHeap(memory);
    Store store = new Store(clock, clock.epochNanos());
    long expiry = clock.epochNanos() + Duration.ofHours(1).toNanos();
    for (int i = 0; i < RECORDS; i++) {
      byte[] key = String.format("k%015d", i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      store.createCounter(key, store.hash(key), 1, 0x04, expiry, clock.epochNanos());
    }
    long after = liveHeap(memory);
    double measured = (double) (after - before) / RECORDS;
    double estimated = (double) store.estimatedBytes() / RECORDS;
    assertThat(estimated).isEqualTo(104.0);
    // The bucket array is 1 to 2 slots a record (8 counted); 200,000 records in 262,144 buckets
    // take 5.2 bytes a record of it, so the heap shows a little under the estimate.
    assertThat(measured).as("live heap bytes a record").isBetween(estimated * 0.9, estimated * 1.1);
    assertThat(store.size()).isEqualTo(RECORDS);
  }

  private static long liveHeap(MemoryMXBean memory) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
