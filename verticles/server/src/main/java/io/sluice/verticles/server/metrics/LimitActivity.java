package io.sluice.verticles.server.metrics;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the rate limits have been deciding, for the dashboard's Limits view: per policy the allowed,
 * denied and near-limit counts, the most-denied keys and the keys near their limit lately; and the
 * UDP endpoint's verdicts. Written by every front event loop at once, read by the dashboard.
 *
 * <p>Keys come from clients, so what is kept of them is bounded: {@value #TRACKED_KEYS} per policy
 * and list. The most-denied keys are counted with the Space-Saving algorithm (a new key replaces
 * the least-denied one and inherits its count), so a key denied often is never pushed out by a
 * flood of keys denied once; its count may be overstated by at most the count it inherited.
 */
public final class LimitActivity {

  /** A key is near its limit once it has used this share of it. */
  public static final double NEAR_LIMIT = 0.8;
  /** Keys kept per policy, for each of the two key lists. */
  public static final int TRACKED_KEYS = 200;
  /** How long a key stays listed as near its limit after it was last seen so. */
  public static final long NEAR_LIMIT_MEMORY_NANOS = 60_000_000_000L;

  private final Map<String, PolicyActivity> policies = new ConcurrentHashMap<>();
  private final LongAdder udpOverLimit = new LongAdder();
  private final LongAdder udpUnderLimit = new LongAdder();

  /** The activity of one policy, created on first use. */
  public PolicyActivity policy(String name) {
    return policies.computeIfAbsent(name, n -> new PolicyActivity());
  }

  /** One UDP {@code over_limit} verdict: Y (over) or N. */
  public void udpVerdict(boolean over) {
    (over ? udpOverLimit : udpUnderLimit).increment();
  }

  public long udpOverLimit() {
    return udpOverLimit.sum();
  }

  public long udpUnderLimit() {
    return udpUnderLimit.sum();
  }

  /** A key and how often it was denied. */
  public record DeniedKey(String key, long denied) {
  }

  /** A key near its limit: {@code used} of {@code limit} (its binding limit) when last seen. */
  public record NearKey(String key, String limitName, long used, long limit, long seenAtNanos) {
  }

  /** One policy's counts and key lists. */
  public static final class PolicyActivity {

    private final LongAdder allowed = new LongAdder();
    private final LongAdder denied = new LongAdder();
    private final LongAdder nearLimit = new LongAdder();
    private final Map<String, long[]> deniedKeys = new HashMap<>();
    /** Access order: the eldest is the key seen near its limit longest ago. */
    private final LinkedHashMap<String, NearKey> nearKeys = new LinkedHashMap<>(16, 0.75f, true);

    /**
     * Counts one decision for {@code key}, taken at {@code nowNanos}.
     *
     * @return whether the request was allowed with at least {@link #NEAR_LIMIT} of its binding limit used
     */
    public boolean decided(String key, Decision decision, long nowNanos) {
      if (!decision.allowed()) {
        denied.increment();
        countDenial(key);
        return false;
      }
      allowed.increment();
      Result binding = decision.binding();
      long used = binding.limit() - binding.remaining();
      if (binding.limit() <= 0 || used < NEAR_LIMIT * binding.limit()) {
        return false;
      }
      nearLimit.increment();
      synchronized (nearKeys) {
        nearKeys.put(key, new NearKey(key, binding.name(), used, binding.limit(), nowNanos));
        if (nearKeys.size() > TRACKED_KEYS) {
          Iterator<String> eldest = nearKeys.keySet().iterator();
          eldest.next();
          eldest.remove();
        }
      }
      return true;
    }

    private void countDenial(String key) {
      synchronized (deniedKeys) {
        long[] count = deniedKeys.get(key);
        if (count != null) {
          count[0]++;
          return;
        }
        long inherited = 0;
        if (deniedKeys.size() >= TRACKED_KEYS) {
          Map.Entry<String, long[]> least = null;
          for (Map.Entry<String, long[]> entry : deniedKeys.entrySet()) {
            if (least == null || entry.getValue()[0] < least.getValue()[0]) {
              least = entry;
            }
          }
          inherited = least.getValue()[0];
          deniedKeys.remove(least.getKey());
        }
        deniedKeys.put(key, new long[] {inherited + 1});
      }
    }

    public long allowed() {
      return allowed.sum();
    }

    public long denied() {
      return denied.sum();
    }

    public long nearLimit() {
      return nearLimit.sum();
    }

    /** The {@code n} most-denied keys, most first. */
    public List<DeniedKey> mostDenied(int n) {
      List<DeniedKey> keys = new ArrayList<>();
      synchronized (deniedKeys) {
        deniedKeys.forEach((key, count) -> keys.add(new DeniedKey(key, count[0])));
      }
      keys.sort(Comparator.comparingLong(DeniedKey::denied).reversed().thenComparing(DeniedKey::key));
      return keys.subList(0, Math.min(n, keys.size()));
    }

    /** Up to {@code n} keys seen near their limit within the last minute, fullest first. */
    public List<NearKey> nearLimitKeys(long nowNanos, int n) {
      List<NearKey> keys = new ArrayList<>();
      synchronized (nearKeys) {
        nearKeys.values().removeIf(near -> nowNanos - near.seenAtNanos() > NEAR_LIMIT_MEMORY_NANOS);
        keys.addAll(nearKeys.values());
      }
      keys.sort(Comparator.comparingDouble((NearKey near) -> (double) near.used() / near.limit()).reversed()
          .thenComparing(NearKey::key));
      return keys.subList(0, Math.min(n, keys.size()));
    }
  }
}
