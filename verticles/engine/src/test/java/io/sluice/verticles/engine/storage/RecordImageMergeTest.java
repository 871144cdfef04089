package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Joining a second copy into the copy that serves: the keys it lacks, or (a heal) the stricter state of each key. */
class RecordImageMergeTest {

  private final ManualClock clock = new ManualClock();
  private final long inAMinute = clock.epochNanos() + Duration.ofMinutes(1).toNanos();

  @Test
  void applyIfAbsentAddsMissingKeysKeepsPresentOnesAndSkipsRemovalsWhateverTheirKind() {
    Store serving = new Store(clock, clock.epochNanos());
    serving.restoreCounter(key("both"), 3, inAMinute, 5);
    serving.restoreBuffer(key("buffer-both"), 3, inAMinute, new byte[] {1});

    Store other = new Store(clock, clock.epochNanos());
    other.restoreCounter(key("both"), 3, inAMinute, 9);
    other.restoreBuffer(key("buffer-both"), 3, inAMinute, new byte[] {2, 2});
    other.restoreCounter(key("only-other"), 3, inAMinute, 7);
    other.restoreBuffer(key("buffer-only-other"), 3, inAMinute, new byte[] {3, 3, 3});
    ByteBuf images = Unpooled.buffer();
    other.forEachLive(record -> RecordImage.writeState(images, record));
    RecordImage.writeRemoval(images, key("both"));

    while (images.isReadable()) {
      RecordImage.applyIfAbsent(images, serving);
    }

    assertThat(find(serving, "both").counter()).isEqualTo(5);
    assertThat(find(serving, "buffer-both").buffer()).containsExactly(1);
    assertThat(find(serving, "only-other").counter()).isEqualTo(7);
    assertThat(find(serving, "only-other").expiresAtNanos()).isEqualTo(inAMinute);
    assertThat(find(serving, "buffer-only-other").buffer()).containsExactly(3, 3, 3);
    assertThat(serving.size()).isEqualTo(4);
  }

  @Test
  void applyStricterJoinsKeysBothHoldAddsMissingOnesAndSkipsRemovalsAndExpiredStates() {
    Store serving = new Store(clock, clock.epochNanos());
    serving.restoreCounter(key("both"), 3, inAMinute, 5);
    serving.restoreCounter(key("lower-here"), 3, inAMinute, 1);
    serving.restoreCounter(key("removed-there"), 3, inAMinute, 4);

    Store other = new Store(clock, clock.epochNanos());
    other.restoreCounter(key("both"), 3, inAMinute + 1, 2);
    other.restoreCounter(key("lower-here"), 3, inAMinute, 9);
    other.restoreCounter(key("only-other"), 3, inAMinute, 7);
    ByteBuf images = Unpooled.buffer();
    other.forEachLive(record -> RecordImage.writeState(images, record));
    RecordImage.writeRemoval(images, key("removed-there"));
    RecordImage.writeState(images, expiredCounter());

    while (images.isReadable()) {
      RecordImage.applyStricter(images, serving);
    }

    assertThat(find(serving, "both").counter()).isEqualTo(2);
    assertThat(find(serving, "both").expiresAtNanos()).isEqualTo(inAMinute + 1);
    assertThat(find(serving, "lower-here").counter()).isEqualTo(1);
    assertThat(find(serving, "removed-there").counter()).isEqualTo(4);
    assertThat(find(serving, "only-other").counter()).isEqualTo(7);
    assertThat(find(serving, "gone")).isNull();
    assertThat(serving.size()).isEqualTo(4);
  }

  /** A counter whose expiry has passed by the time it is applied. */
  private Record expiredCounter() {
    Store past = new Store(clock, clock.epochNanos());
    past.restoreCounter(key("gone"), 3, clock.epochNanos() + 1_000, 1);
    Record[] gone = new Record[1];
    past.forEachLive(record -> gone[0] = record);
    clock.advance(Duration.ofMillis(1));
    return gone[0];
  }

  private static Record find(Store store, String key) {
    byte[] bytes = key(key);
    return store.find(bytes, store.hash(bytes), store.now());
  }

  private static byte[] key(String key) {
    return key.getBytes(StandardCharsets.US_ASCII);
  }
}
