package io.sluice.verticles.rls;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * envoyproxy/ratelimit's local cache ({@code LOCAL_CACHE_SIZE_IN_BYTES}): the records a node was
 * told are over their limit, each until that answer stops being right (its fixed window's end, or
 * a strategy's retry-after), so that the node answers OVER_LIMIT again without asking the shard —
 * on a cluster, the owner node — that keeps the record. Shared by the service of every front event
 * loop of a node: 16 segments, each under its own lock and holding its sixteenth of the bytes.
 *
 * <p>An entry is counted as its key's bytes plus {@link #ENTRY_OVERHEAD_BYTES}; a segment that
 * would go over its share first forgets its oldest entries. Expired entries are dropped when
 * met (a lookup, or the oldest end of a full segment). Time is the caller's (Sluice's clock).
 */
public final class OverLimitCache {

  /** What one entry costs besides its key: the map's entry, the key's wrapper, the expiry. */
  static final int ENTRY_OVERHEAD_BYTES = 96;
  private static final int SEGMENTS = 16;

  private final Segment[] segments;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder evictions = new LongAdder();

  /** @param maxBytes the cache's bound; 0 turns it off */
  public OverLimitCache(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("the local cache's bytes must not be negative, was " + maxBytes);
    }
    segments = new Segment[maxBytes == 0 ? 0 : SEGMENTS];
    for (int i = 0; i < segments.length; i++) {
      segments[i] = new Segment(maxBytes / SEGMENTS);
    }
  }

  /** No cache: every descriptor is asked of its shard. */
  public static OverLimitCache off() {
    return new OverLimitCache(0);
  }

  public boolean enabled() {
    return segments.length > 0;
  }

  /** Whether {@code key} is known to be over its limit at {@code nowNanos}; counted as a hit or a miss. */
  boolean isOver(byte[] key, long nowNanos) {
    if (!enabled()) {
      return false;
    }
    ByteBuffer wrapped = ByteBuffer.wrap(key);
    boolean over = segmentOf(wrapped).isOver(wrapped, nowNanos);
    (over ? hits : misses).increment();
    return over;
  }

  /** Remembers that {@code key} is over its limit until {@code untilNanos}. */
  void remember(byte[] key, long untilNanos) {
    if (enabled()) {
      ByteBuffer wrapped = ByteBuffer.wrap(key);
      segmentOf(wrapped).put(wrapped, untilNanos);
    }
  }

  /** Lookups that found the key over its limit: answers given without asking its shard. */
  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }

  /** Entries forgotten before their time to stay within the bytes. */
  public long evictions() {
    return evictions.sum();
  }

  public long entries() {
    long entries = 0;
    for (Segment segment : segments) {
      entries += segment.size();
    }
    return entries;
  }

  private Segment segmentOf(ByteBuffer key) {
    return segments[Math.floorMod(key.hashCode(), segments.length)];
  }

  private final class Segment {
    private final long maxBytes;
    private final Map<ByteBuffer, Long> untilByKey = new LinkedHashMap<>();
    private long bytes;

    Segment(long maxBytes) {
      this.maxBytes = maxBytes;
    }

    synchronized boolean isOver(ByteBuffer key, long nowNanos) {
      Long until = untilByKey.get(key);
      if (until == null) {
        return false;
      }
      if (nowNanos < until) {
        return true;
      }
      forget(key);
      return false;
    }

    synchronized void put(ByteBuffer key, long untilNanos) {
      long cost = cost(key);
      if (cost > maxBytes) {
        return;
      }
      if (untilByKey.containsKey(key)) {
        forget(key);
      }
      Iterator<Map.Entry<ByteBuffer, Long>> oldest = untilByKey.entrySet().iterator();
      while (bytes + cost > maxBytes && oldest.hasNext()) {
        Map.Entry<ByteBuffer, Long> entry = oldest.next();
        bytes -= cost(entry.getKey());
        oldest.remove();
        evictions.increment();
      }
      untilByKey.put(key, untilNanos);
      bytes += cost;
    }

    synchronized int size() {
      return untilByKey.size();
    }

    private void forget(ByteBuffer key) {
      untilByKey.remove(key);
      bytes -= cost(key);
    }

    private static long cost(ByteBuffer key) {
      return key.capacity() + ENTRY_OVERHEAD_BYTES;
    }
  }
}
