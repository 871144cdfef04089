package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Expiry is exact: a record is visible up to expiresAt - 1 ns and absent from expiresAt on. */
class StoreExpiryTest {

  private final ManualClock clock = new ManualClock();
  private final Store store = new Store(clock, clock.epochNanos());

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private Record counter(String name, long expiresAt) {
    byte[] key = key(name);
    return store.createCounter(key, store.hash(key), 7, 0x04, expiresAt, store.now());
  }

  private Record find(String name) {
    byte[] key = key(name);
    return store.find(key, store.hash(key), store.now());
  }

  @Test
  void recordIsVisibleOneNanosecondBeforeItsExpiry() {
    long expiresAt = clock.epochNanos() + Duration.ofSeconds(5).toNanos();
    counter("k", expiresAt);

    clock.set(expiresAt - 1);

    assertThat(find("k")).isNotNull();
    assertThat(find("k").counter()).isEqualTo(7);
  }

  @Test
  void recordIsAbsentExactlyAtItsExpiry() {
    long expiresAt = clock.epochNanos() + Duration.ofSeconds(5).toNanos();
    counter("k", expiresAt);

    clock.set(expiresAt);

    assertThat(find("k")).isNull();
  }

  @Test
  void findWithAnExplicitInstantUsesThatInstantNotTheClock() {
    long expiresAt = clock.epochNanos() + 1_000;
    counter("k", expiresAt);
    byte[] key = key("k");

    assertThat(store.find(key, store.hash(key), expiresAt - 1)).isNotNull();
    assertThat(store.find(key, store.hash(key), expiresAt)).isNull();
  }

  @Test
  void expiredRecordFoundByALookupIsReclaimedAtOnce() {
    long expiresAt = clock.epochNanos() + 1_000;
    counter("k", expiresAt);
    counter("other", expiresAt + Duration.ofHours(1).toNanos());
    assertThat(store.size()).isEqualTo(2);

    clock.set(expiresAt);
    assertThat(find("k")).isNull();

    assertThat(store.size()).isEqualTo(1);
    assertThat(store.counters()).isEqualTo(1);
    assertThat(store.expiredReclaimed()).isEqualTo(1);
  }

  @Test
  void expiredRecordNotYetLookedUpIsStillHeldButNotListed() {
    long expiresAt = clock.epochNanos() + 1_000;
    counter("gone", expiresAt);
    counter("live", expiresAt + 1);

    clock.set(expiresAt);
    List<String> live = new ArrayList<>();
    store.forEachLive(r -> live.add(new String(r.key(), StandardCharsets.US_ASCII)));

    assertThat(live).containsExactly("live");
    assertThat(store.size()).isEqualTo(2);
    assertThat(store.expiredReclaimed()).isZero();
  }

  @Test
  void counterCreatedAlreadyExpiredIsNotStored() {
    long now = clock.epochNanos();
    counter("now", now);
    counter("past", now - 1);

    assertThat(store.size()).isZero();
    assertThat(store.counters()).isZero();
    assertThat(find("now")).isNull();
    assertThat(find("past")).isNull();
    assertThat(store.expiredReclaimed()).isZero();
  }

  @Test
  void counterCreatedOneNanosecondBeforeExpiryIsStored() {
    counter("k", clock.epochNanos() + 1);

    assertThat(store.size()).isEqualTo(1);
    assertThat(find("k")).isNotNull();
  }

  @Test
  void bufferCreatedAlreadyExpiredIsNotStored() {
    byte[] key = key("b");
    store.createBuffer(key, store.hash(key), new byte[] {1, 2, 3}, 0x04, clock.epochNanos(), clock.epochNanos());

    assertThat(store.size()).isZero();
    assertThat(store.buffers()).isZero();
    assertThat(store.bufferBytes()).isZero();
  }

  @Test
  void keyOfAnExpiredRecordCanBeCreatedAfresh() {
    long expiresAt = clock.epochNanos() + 1_000;
    counter("k", expiresAt);
    clock.set(expiresAt);

    assertThat(find("k")).isNull();
    counter("k", expiresAt + 1_000);

    assertThat(find("k")).isNotNull();
    assertThat(store.size()).isEqualTo(1);
    assertThat(store.counters()).isEqualTo(1);
  }

  @Test
  void movingExpiryOfAHeldRecordChangesItsVisibility() {
    long expiresAt = clock.epochNanos() + 1_000;
    Record record = counter("k", expiresAt);

    store.setExpiry(record, clock.epochNanos());

    assertThat(find("k")).isNull();
    assertThat(store.size()).isZero();
  }
}
