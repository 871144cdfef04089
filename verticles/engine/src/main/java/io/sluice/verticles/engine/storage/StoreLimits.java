package io.sluice.verticles.engine.storage;

/**
 * The bound of one shard's records: a count and a memory estimate, and what to do at the bound.
 * Each shard gets its share of the instance-wide limits, so that no shard ever waits for another
 * to make room.
 *
 * @param maxRecords records one shard may hold ({@link Long#MAX_VALUE}: unlimited)
 * @param maxBytes   the memory estimate of its records ({@link Long#MAX_VALUE}: unlimited)
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
   * One shard's share of instance-wide limits: each is divided by the shard count, rounding down
   * (at least 1), so that the shards together never hold more than the limit.
   */
  public static StoreLimits shareOf(long maxKeys, long maxMemory, Eviction eviction, int shards) {
    return new StoreLimits(share(maxKeys, shards), share(maxMemory, shards), eviction);
  }

  private static long share(long limit, int shards) {
    return limit == UNLIMITED ? UNLIMITED : Math.max(1, limit / shards);
  }

  public boolean isUnlimited() {
    return maxRecords == UNLIMITED && maxBytes == UNLIMITED;
  }
}
