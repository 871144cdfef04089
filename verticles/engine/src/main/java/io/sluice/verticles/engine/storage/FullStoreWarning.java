package io.sluice.verticles.engine.storage;

import java.util.concurrent.TimeUnit;

/**
 * Tells the log when a store starts evicting or refusing, and then at most once a minute while
 * it goes on: a flood of new keys must not become a flood of log lines. Each line says what
 * happened since the last one. Called on the shard's thread (the sweep timer), with its clock.
 */
public final class FullStoreWarning {

  static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Store store;
  private long evictedForKeys;
  private long evictedForMemory;
  private long rejected;
  private long lastWarningNanos;
  private boolean warned;

  public FullStoreWarning(Store store) {
    this.store = store;
  }

  /** The warning to log now, or null: nothing new happened, or the last warning is under a minute old. */
  public String check(long nowNanos) {
    long keys = store.evicted(Bound.KEYS) - evictedForKeys;
    long memory = store.evicted(Bound.MEMORY) - evictedForMemory;
    long refused = store.rejected() - rejected;
    if (keys + memory + refused == 0 || (warned && nowNanos - lastWarningNanos < INTERVAL_NANOS)) {
      return null;
    }
    StringBuilder text = new StringBuilder(warned ? "still full" : "full")
        .append(": ").append(store.size()).append(" records, ").append(store.estimatedBytes())
        .append(" bytes estimated (limits: ").append(limit(store.limits().maxRecords(), "record")).append(", ")
        .append(limit(store.limits().maxBytes(), "byte")).append("); ").append(warned ? "in the last minute " : "")
        .append(keys + memory).append(" records evicted (").append(keys).append(" for --max-keys, ")
        .append(memory).append(" for --max-memory), ").append(refused).append(" writes refused (--eviction ")
        .append(store.limits().eviction().label()).append(')');
    evictedForKeys += keys;
    evictedForMemory += memory;
    rejected += refused;
    lastWarningNanos = nowNanos;
    warned = true;
    return text.toString();
  }

  private static String limit(long value, String unit) {
    return value == StoreLimits.UNLIMITED ? "no " + unit + " limit" : value + " " + unit + "s";
  }
}
