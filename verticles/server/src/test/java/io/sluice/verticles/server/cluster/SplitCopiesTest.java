package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy served apart that reaches an owner still waiting for its previous owner's records: the
 * install of those records replaces the store, and the copy is joined again after it.
 */
class SplitCopiesTest {

  private static final int PARTITION = 7;
  private final ManualClock clock = new ManualClock();
  private final long inAMinute = clock.epochNanos() + Duration.ofMinutes(1).toNanos();

  @Test
  void aCopyThatCameWhileAwaitingIsJoinedAgainAfterTheInstall() {
    PartitionStates states = new PartitionStates();
    states.set(PARTITION, PartitionStates.AWAITING);
    SplitCopies copies = new SplitCopies(states);
    Store owner = store();

    copies.join(PARTITION, owner, Snapshots.take(storeWith("both", 2, "only-there", 5)));
    Snapshots.install(owner, Snapshots.take(storeWith("both", 8, "only-handed", 9)));
    copies.joinAgain(PARTITION, owner);

    assertThat(quota(owner, "both")).isEqualTo(2);
    assertThat(quota(owner, "only-there")).isEqualTo(5);
    assertThat(quota(owner, "only-handed")).isEqualTo(9);
  }

  @Test
  void aCopyThatCameWhileServingIsJoinedOnceAndNotKept() {
    PartitionStates states = new PartitionStates();
    states.set(PARTITION, PartitionStates.SERVING);
    SplitCopies copies = new SplitCopies(states);
    Store owner = storeWith("both", 8, "only-here", 9);

    copies.join(PARTITION, owner, Snapshots.take(storeWith("both", 2, "only-there", 5)));
    Snapshots.install(owner, Snapshots.take(storeWith("both", 8, "only-here", 9)));
    copies.joinAgain(PARTITION, owner);

    assertThat(quota(owner, "both")).as("nothing was kept to join again").isEqualTo(8);
    assertThat(owner.size()).isEqualTo(2);
  }

  private Store store() {
    return new Store(clock, clock.epochNanos());
  }

  private Store storeWith(String key, long quota, String other, long otherQuota) {
    Store store = store();
    store.restoreCounter(bytes(key), 3, inAMinute, quota);
    store.restoreCounter(bytes(other), 3, inAMinute, otherQuota);
    return store;
  }

  private static long quota(Store store, String key) {
    Record record = store.find(bytes(key), store.hash(bytes(key)), store.now());
    return record.counter();
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.US_ASCII);
  }
}
