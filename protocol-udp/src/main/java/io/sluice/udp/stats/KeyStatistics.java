package io.sluice.udp.stats;

import java.util.HashMap;
import java.util.Map;

/**
 * The statistics of {@code get_stats} (spec §6), kept per (munged) key for rules with statistics
 * and for stats-only keys:
 *
 * <ul>
 *   <li>{@code n_req} and {@code n_over}: cumulative since start, never reset;</li>
 *   <li>the maximum rate, per 5-minute bucket aligned on Unix time (…:00, :05, :10 UTC). Only its
 *       integer part is kept: the original compared under {@code use integer}, and printed
 *       {@code %d}. {@code last_max_rate} is the maximum of the previous complete bucket: 0 before
 *       the first rotation, for keys idle in that bucket, and after a whole bucket without any
 *       rotation check (the original's timer would have rotated an empty bucket in then).</li>
 * </ul>
 *
 * <p>No timers and no clock: every method takes the current time, so the bucket is rotated lazily
 * ({@link BucketRotation#ON_ACCESS}) or by the caller ({@link BucketRotation#CALLER_DRIVEN}).
 * Thread-safe (one lock; every operation is a few map lookups).
 *
 * <p>Like the original, statistics are never forgotten; only keys of rules with
 * {@code keep-stats} are counted, which in the MusicBrainz table are a bounded set.
 */
public final class KeyStatistics {

  /** Length of a maximum-rate bucket. */
  public static final long BUCKET_SECONDS = 300;

  private static final class Counters {
    long requests;
    long overLimit;
  }

  private final BucketRotation rotation;
  private final Map<String, Counters> counters = new HashMap<>();
  private Map<String, Long> maxRateThisBucket = new HashMap<>();
  private Map<String, Long> maxRateLastBucket = new HashMap<>();
  private boolean bucketStarted;
  private long nextBucketStart;

  public KeyStatistics(BucketRotation rotation) {
    this.rotation = rotation;
  }

  public BucketRotation rotation() {
    return rotation;
  }

  /**
   * Counts one use of {@code key}: its verdict and the rate computed for it (which, for a refused
   * use of a non-strict key, may exceed the limit).
   */
  public synchronized void record(String key, boolean over, double rate, double nowSeconds) {
    rotateOnAccess(nowSeconds);
    Counters counts = counters.computeIfAbsent(key, ignored -> new Counters());
    counts.requests++;
    if (over) {
      counts.overLimit++;
    }
    long wholeRate = (long) rate;
    if (wholeRate > maxRateThisBucket.getOrDefault(key, 0L)) {
      maxRateThisBucket.put(key, wholeRate);
    }
  }

  /** The statistics of {@code key} exactly as given (no munging); zeros for a key never counted. */
  public synchronized StatsSnapshot snapshot(String key, double nowSeconds) {
    rotateOnAccess(nowSeconds);
    Counters counts = counters.get(key);
    long lastMaxRate = maxRateLastBucket.getOrDefault(key, 0L);
    if (counts == null && lastMaxRate == 0) {
      return StatsSnapshot.NONE;
    }
    return counts == null
        ? new StatsSnapshot(0, 0, lastMaxRate)
        : new StatsSnapshot(counts.requests, counts.overLimit, lastMaxRate);
  }

  /**
   * The original's {@code check_next_bucket}: on the first call, and whenever {@code nowSeconds}
   * has reached the next bucket boundary, the current maxima become the last bucket's and a new
   * bucket starts; the next boundary is the next multiple of 300 s after {@code int(now)}.
   *
   * @return whether a rotation happened
   */
  public synchronized boolean rotateIfDue(double nowSeconds) {
    long now = (long) Math.floor(nowSeconds);
    if (bucketStarted && now < nextBucketStart) {
      return false;
    }
    boolean wholeBucketMissed = bucketStarted && now >= nextBucketStart + BUCKET_SECONDS;
    maxRateLastBucket = wholeBucketMissed ? new HashMap<>() : maxRateThisBucket;
    maxRateThisBucket = new HashMap<>();
    nextBucketStart = nextBucketStartAfter(now);
    bucketStarted = true;
    return true;
  }

  /** The next bucket boundary, in Unix seconds, or {@code Long.MIN_VALUE} before the first rotation. */
  public synchronized long nextBucketStart() {
    return bucketStarted ? nextBucketStart : Long.MIN_VALUE;
  }

  /** Number of keys with counters. */
  public synchronized int size() {
    return counters.size();
  }

  /** {@code (int(now) + 300) − ((int(now) + 300) mod 300)}: the first multiple of 300 after {@code now}. */
  static long nextBucketStartAfter(long nowWholeSeconds) {
    long next = nowWholeSeconds + BUCKET_SECONDS;
    return next - Math.floorMod(next, BUCKET_SECONDS);
  }

  private void rotateOnAccess(double nowSeconds) {
    if (rotation == BucketRotation.ON_ACCESS) {
      rotateIfDue(nowSeconds);
    }
  }
}
