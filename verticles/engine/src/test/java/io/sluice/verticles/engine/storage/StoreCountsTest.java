package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** counters(), buffers() and bufferBytes() follow every way a record comes and goes. */
class StoreCountsTest {

  private static final long HOUR = Duration.ofHours(1).toNanos();

  private final ManualClock clock = new ManualClock();
  private final Store store = new Store(clock, clock.epochNanos());

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private Record counter(String name, long ttlNanos) {
    byte[] key = key(name);
    return store.createCounter(key, store.hash(key), 1, 0x04, store.now() + ttlNanos, store.now());
  }

  private Record buffer(String name, int length, long ttlNanos) {
    byte[] key = key(name);
    return store.createBuffer(key, store.hash(key), new byte[length], 0x04, store.now() + ttlNanos, store.now());
  }

  private Record find(String name) {
    byte[] key = key(name);
    return store.find(key, store.hash(key), store.now());
  }

  private void assertCounts(int counters, int buffers, long bufferBytes) {
    assertThat(store.counters()).as("counters").isEqualTo(counters);
    assertThat(store.buffers()).as("buffers").isEqualTo(buffers);
    assertThat(store.bufferBytes()).as("bufferBytes").isEqualTo(bufferBytes);
    assertThat(store.size()).as("size").isEqualTo(counters + buffers);
  }

  @Test
  void emptyStoreCountsNothing() {
    assertCounts(0, 0, 0);
    assertThat(store.expiredReclaimed()).isZero();
  }

  @Test
  void creatingCountsEachKind() {
    counter("c1", HOUR);
    counter("c2", HOUR);
    buffer("b1", 3, HOUR);
    buffer("b2", 5, HOUR);
    buffer("empty", 0, HOUR);

    assertCounts(2, 3, 8);
  }

  @Test
  void overwritingABufferAdjustsBufferBytesBothWays() {
    Record record = buffer("b", 3, HOUR);

    store.overwriteBuffer(record, new byte[10], 0x05, store.now() + HOUR);
    assertCounts(0, 1, 10);

    store.overwriteBuffer(record, new byte[2], 0x05, store.now() + HOUR);
    assertCounts(0, 1, 2);
    assertThat(record.ttlType()).isEqualTo(0x05);
    assertThat(record.buffer()).hasSize(2);
  }

  @Test
  void removingTakesRecordsOutOfTheCountsOnce() {
    Record c = counter("c", HOUR);
    Record b = buffer("b", 4, HOUR);
    buffer("keep", 6, HOUR);

    store.remove(c);
    assertCounts(0, 2, 10);
    store.remove(b);
    assertCounts(0, 1, 6);

    store.remove(b);
    store.remove(c);
    assertCounts(0, 1, 6);
  }

  @Test
  void removingAnOverwrittenBufferForgetsItsCurrentSize() {
    Record b = buffer("b", 4, HOUR);
    store.overwriteBuffer(b, new byte[9], 0x04, store.now() + HOUR);

    store.remove(b);

    assertCounts(0, 0, 0);
  }

  @Test
  void expiryReclaimedByALookupLeavesTheCounts() {
    counter("c", 1_000);
    buffer("b", 7, 1_000);
    buffer("keep", 2, HOUR);
    clock.advance(Duration.ofNanos(1_000));

    assertThat(find("c")).isNull();
    assertCounts(0, 2, 9);
    assertThat(find("b")).isNull();
    assertCounts(0, 1, 2);
    assertThat(store.expiredReclaimed()).isEqualTo(2);
  }

  @Test
  void expiryReclaimedByTheSweepLeavesTheCounts() {
    counter("c1", 1_000);
    counter("c2", HOUR);
    buffer("b1", 7, 1_000);
    Record overwritten = buffer("b2", 1, 1_000);
    store.overwriteBuffer(overwritten, new byte[20], 0x04, store.now() + 1_000);
    buffer("b3", 5, HOUR);
    clock.advance(Duration.ofNanos(1_000));

    int reclaimed = store.sweep(store.bucketCount());

    assertThat(reclaimed).isEqualTo(3);
    assertCounts(1, 1, 5);
    assertThat(store.expiredReclaimed()).isEqualTo(3);
  }

  @Test
  void recordNeverStoredIsNeverCounted() {
    counter("c", 0);
    buffer("b", 9, -5);

    assertCounts(0, 0, 0);
    assertThat(store.sweep(store.bucketCount())).isZero();
    assertCounts(0, 0, 0);
  }

  @Test
  void fullLifecycleEndsAtZero() {
    Record c = counter("c", HOUR);
    Record b = buffer("b", 3, HOUR);
    store.overwriteBuffer(b, new byte[8], 0x04, store.now() + 1_000);
    counter("short", 1_000);
    store.remove(c);
    clock.advance(Duration.ofSeconds(1));
    store.sweep(store.bucketCount());

    assertCounts(0, 0, 0);
    assertThat(store.expiredReclaimed()).isEqualTo(2);
  }
}
