package io.sluice.verticles.engine.udprate.stats;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The statistics of {@code get_stats} (spec §6), kept per (munged) key for rules with statistics
 * and for stats-only keys:
 *
 * <ul>
 *   <li>{@code n_req} and {@code n_over}: cumulative while the key is in use;</li>
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
 * <p>The original never forgot a key, and keys come from clients: one rule such as
 * {@code ^(\S*) cust=bbc$} keeps statistics for every distinct first word sent. So a key not used
 * for {@value #RETENTION_SECONDS} s is forgotten (its {@code last_max_rate} is 0 by then, and its
 * rate state has expired too; used again, it starts afresh), and at most {@code maxKeys} keys are
 * held: a new key beyond that makes the least recently used one forgotten. Forgetting is exact on
 * every read and write; {@link #forgetIdle} (and each {@code record}, a little) reclaims the memory.
 */
public final class KeyStatistics {

  /** Length of a maximum-rate bucket. */
  public static final long BUCKET_SECONDS = 300;

  /**
   * Idle time after which a key's statistics are forgotten: a use in one bucket shows in
   * {@code last_max_rate} until the end of the next one, at most two buckets later.
   */
  public static final long RETENTION_SECONDS = 2 * BUCKET_SECONDS;

  /** Keys held at most by default: about 20 MB of short keys. */
  public static final int DEFAULT_MAX_KEYS = 100_000;

  /** Idle keys reclaimed by each {@link #record}: more than it can add, so they never pile up. */
  private static final int FORGOTTEN_PER_RECORD = 2;

  /**
   * One key's figures. The maximum is kept for the bucket of generation {@code generation} and the
   * one before it, so a bucket rotation needs no pass over the keys.
   */
  private static final class Entry {
    long requests;
    long overLimit;
    long generation;
    long maxRate;
    long previousMaxRate;
    double lastUseSeconds;

    Entry(long generation) {
      this.generation = generation;
    }

    void moveTo(long current) {
      if (generation != current) {
        previousMaxRate = generation == current - 1 ? maxRate : 0;
        maxRate = 0;
        generation = current;
      }
    }

    long lastMaxRate(long current) {
      if (generation == current) {
        return previousMaxRate;
      }
      return generation == current - 1 ? maxRate : 0;
    }

    boolean idleAt(double nowSeconds) {
      return nowSeconds - lastUseSeconds >= RETENTION_SECONDS;
    }
  }

  private final BucketRotation rotation;
  private final int maxKeys;
  /** In order of last use, the least recent first. */
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
  /** Counts buckets; a bucket missed whole counts twice, so no key's maximum is the previous one's. */
  private long generation;
  private boolean bucketStarted;
  private long nextBucketStart;

  public KeyStatistics(BucketRotation rotation) {
    this(rotation, DEFAULT_MAX_KEYS);
  }

  public KeyStatistics(BucketRotation rotation, int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be at least 1, got " + maxKeys);
    }
    this.rotation = rotation;
    this.maxKeys = maxKeys;
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
    forget(nowSeconds, FORGOTTEN_PER_RECORD);
    // Removed and put back: the entry moves to the end, the most recently used.
    Entry entry = entries.remove(key);
    if (entry == null || entry.idleAt(nowSeconds)) {
      entry = new Entry(generation);
    }
    entries.put(key, entry);
    if (entries.size() > maxKeys) {
      Iterator<Entry> leastRecent = entries.values().iterator();
      leastRecent.next();
      leastRecent.remove();
    }
    entry.moveTo(generation);
    entry.lastUseSeconds = nowSeconds;
    entry.requests++;
    if (over) {
      entry.overLimit++;
    }
    long wholeRate = (long) rate;
    if (wholeRate > entry.maxRate) {
      entry.maxRate = wholeRate;
    }
  }

  /** The statistics of {@code key} exactly as given (no munging); zeros for a key not counted. */
  public synchronized StatsSnapshot snapshot(String key, double nowSeconds) {
    rotateOnAccess(nowSeconds);
    Entry entry = entries.get(key);
    if (entry == null || entry.idleAt(nowSeconds)) {
      return StatsSnapshot.NONE;
    }
    return new StatsSnapshot(entry.requests, entry.overLimit, entry.lastMaxRate(generation));
  }

  /**
   * Reclaims the memory of at most {@code atMost} keys idle for {@value #RETENTION_SECONDS} s (their
   * statistics already read as zeros).
   *
   * @return the keys reclaimed
   */
  public synchronized int forgetIdle(double nowSeconds, int atMost) {
    return forget(nowSeconds, atMost);
  }

  private int forget(double nowSeconds, int atMost) {
    int forgotten = 0;
    Iterator<Entry> leastRecentFirst = entries.values().iterator();
    while (forgotten < atMost && leastRecentFirst.hasNext() && leastRecentFirst.next().idleAt(nowSeconds)) {
      leastRecentFirst.remove();
      forgotten++;
    }
    return forgotten;
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
    generation += wholeBucketMissed ? 2 : 1;
    nextBucketStart = nextBucketStartAfter(now);
    bucketStarted = true;
    return true;
  }

  /** The next bucket boundary, in Unix seconds, or {@code Long.MIN_VALUE} before the first rotation. */
  public synchronized long nextBucketStart() {
    return bucketStarted ? nextBucketStart : Long.MIN_VALUE;
  }

  /** Keys held in memory, idle ones not yet reclaimed included. */
  public synchronized int size() {
    return entries.size();
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
