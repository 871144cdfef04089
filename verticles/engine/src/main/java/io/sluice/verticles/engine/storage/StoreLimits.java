package io.sluice.verticles.engine.storage;

/**
 * The bound of records, of the instance ({@code --max-keys}, {@code --max-memory},
 * {@code --eviction}) or of one shard: a count and a memory estimate, and what to do at the bound.
 * Each shard gets its {@link #share} of the instance's limits, so that no shard ever waits for
 * another to make room.
 *
 * @param maxRecords records that may be held ({@link #UNLIMITED}: no limit)
 * @param maxBytes   the memory estimate of those records ({@link #UNLIMITED}: no limit)
 */
public record StoreLimits(long maxRecords, long maxBytes, Eviction eviction) {

  public static final long UNLIMITED = Long.MAX_VALUE;

  public StoreLimits {
    if (maxRecords < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("limits must be positive: " + maxRecords + " records, " + maxBytes + " bytes");
    }
  }

  public static StoreLimits unlimited() {
    return new StoreLimits(UNLIMITED, UNLIMITED, Eviction.VOLATILE_TTL);
  }

  /**
   * One shard's share of these instance-wide limits: each is divided by the shard count, rounding
   * down (at least 1), so that the shards together never hold more than the limit.
   */
  public StoreLimits share(int shards) {
    return new StoreLimits(share(maxRecords, shards), share(maxBytes, shards), eviction);
  }

  private static long share(long limit, int shards) {
    return limit == UNLIMITED ? UNLIMITED : Math.max(1, limit / shards);
  }

  public boolean isUnlimited() {
    return maxRecords == UNLIMITED && maxBytes == UNLIMITED;
  }
}
