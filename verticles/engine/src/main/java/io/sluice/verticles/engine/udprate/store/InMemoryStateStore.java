package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.UdpState;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A {@link StateStore} in a {@link ConcurrentHashMap}: atomic per key, thread-safe, honouring TTLs
 * against an injected millisecond clock (expired entries read as absent and are purged lazily).
 * Meant for tests and single-process use; the gateway keeps state in its storage shards.
 */
public final class InMemoryStateStore implements StateStore {

  private record Entry(UdpState state, long expiresAtMillis) {
  }

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final LongSupplier nowMillis;

  /** Expiry measured with {@link System#nanoTime()}. */
  public InMemoryStateStore() {
    this(() -> System.nanoTime() / 1_000_000);
  }

  /** @param nowMillis a millisecond clock that never goes backwards (any origin) */
  public InMemoryStateStore(LongSupplier nowMillis) {
    this.nowMillis = nowMillis;
  }

  @Override
  public <R> R update(String key, StateTransition<R> transition) {
    long now = nowMillis.getAsLong();
    @SuppressWarnings("unchecked")
    R[] result = (R[]) new Object[1];
    entries.compute(key, (ignored, entry) -> {
      Entry live = entry == null || isExpired(entry, now) ? null : entry;
      StateTransition.Outcome<R> outcome = transition.apply(live == null ? null : live.state());
      result[0] = outcome.result();
      if (outcome.leavesStateUnchanged()) {
        return live;
      }
      return new Entry(outcome.stateToStore(), saturatedSum(now, outcome.ttlMillis()));
    });
    return result[0];
  }

  @Override
  public long size() {
    purgeExpired();
    return entries.size();
  }

  /** The stored state of a key, or {@code null} when absent or expired (for tests and diagnostics). */
  public UdpState get(String key) {
    Entry entry = entries.get(key);
    return entry == null || isExpired(entry, nowMillis.getAsLong()) ? null : entry.state();
  }

  /** Removes every expired entry. */
  public void purgeExpired() {
    long now = nowMillis.getAsLong();
    entries.values().removeIf(entry -> isExpired(entry, now));
  }

  private static boolean isExpired(Entry entry, long now) {
    return now >= entry.expiresAtMillis();
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
