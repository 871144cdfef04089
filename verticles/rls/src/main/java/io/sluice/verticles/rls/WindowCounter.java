package io.sluice.verticles.rls;

import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ResultTask;

import java.nio.charset.StandardCharsets;

/**
 * Adds a descriptor's hits to its window's counter on the shard that owns the counter, and answers
 * the count after the addition: atomic per key, since a shard runs its tasks one at a time. The
 * counter is a buffer record holding the count in ASCII decimal (a Throttr GET shows {@code 17}),
 * expiring when its window ends: there is no sweep of old windows to run, and a record's TTL says
 * when its window resets. Counting goes on past the limit, as envoyproxy/ratelimit's does.
 */
final class WindowCounter extends ResultTask<Long> implements CountTask {

  /** A record that outlives its window a little is harmless; one that expires at once is not. */
  private static final long MIN_TTL_NANOS = 1_000_000;

  private final long hits;
  private final long windowEndNanos;
  /** The window's capacity, known only where the task was made: the owner that runs it needs none. */
  private final long requests;
  private final long secondsUntilReset;

  /** As it arrives at the counter's owner ({@link WindowCounterCodec}): it adds, and answers the count alone. */
  WindowCounter(byte[] key, long hits, long windowEndNanos) {
    this(key, hits, windowEndNanos, 0, 0);
  }

  /**
   * @param requests          what the window admits, to read the count against ({@link #count})
   * @param secondsUntilReset from the request's time to the window's end
   */
  WindowCounter(byte[] key, long hits, long windowEndNanos, long requests, long secondsUntilReset) {
    super(key);
    this.hits = hits;
    this.windowEndNanos = windowEndNanos;
    this.requests = requests;
    this.secondsUntilReset = secondsUntilReset;
  }

  /** The count goes on past the limit and never falls within a window: over stays over to its end. */
  @Override
  public Algorithm.Count count() {
    Long after = result();
    return after == null ? null
        : new Algorithm.Count(after, requests, secondsUntilReset, after > requests ? windowEndNanos : 0);
  }

  long hits() {
    return hits;
  }

  long windowEndNanos() {
    return windowEndNanos;
  }

  @Override
  protected Long compute(KeyState state, long nowNanos) {
    if (state.isCounter()) {
      return refuse(new IllegalStateException("the record " + recordKey() + " is a Throttr counter, not a rate limit window"));
    }
    long stored = decode(state.value());
    if (stored < 0) {
      return refuse(new IllegalStateException("the record " + recordKey() + " holds '"
          + new String(state.value(), StandardCharsets.ISO_8859_1) + "', not a count; it is left as it is until it expires"));
    }
    long count = stored + hits;
    if (hits > 0) {
      state.put(Long.toString(count).getBytes(StandardCharsets.US_ASCII), Math.max(MIN_TTL_NANOS, windowEndNanos - nowNanos));
    }
    return count;
  }

  /** The stored count, 0 without a record, -1 for a record that holds no count (never a silent reset). */
  private long decode(byte[] value) {
    if (value == null) {
      return 0;
    }
    long count = 0;
    boolean digits = value.length > 0 && value.length <= 19;
    for (int i = 0; digits && i < value.length; i++) {
      digits = value[i] >= '0' && value[i] <= '9';
      count = count * 10 + (value[i] - '0');
    }
    return digits ? count : -1;
  }

  private String recordKey() {
    return new String(key(), StandardCharsets.UTF_8);
  }
}
