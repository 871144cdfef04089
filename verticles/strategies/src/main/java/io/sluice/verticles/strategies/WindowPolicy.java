package io.sluice.verticles.strategies;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Policy of the fixed window: 1 to 8 named quotas, all of which must admit a request (spec §3.2).
 * The order is kept: it is the order of results and of entries in the stored state.
 *
 * <p>Validation is upstream's — no two quotas with the same rate {@code limit / window_seconds}
 * (tolerance 1e-9), so 1/min and 60/h are refused — plus one rule upstream lacks: names must be
 * unique.
 */
public record WindowPolicy(List<Quota> quotas) {

  /** Most quotas one policy may have (the state's quota count is one digit). */
  public static final int MAX_QUOTAS = 8;

  public WindowPolicy {
    quotas = List.copyOf(quotas);
    if (quotas.isEmpty() || quotas.size() > MAX_QUOTAS) {
      throw new IllegalArgumentException(
          "a fixed window needs 1 to " + MAX_QUOTAS + " quotas, got " + quotas.size());
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < quotas.size(); i++) {
      Quota q = quotas.get(i);
      if (!names.add(q.name())) {
        throw new IllegalArgumentException("duplicate quota name " + q.name());
      }
      for (int j = 0; j < i; j++) {
        Quota earlier = quotas.get(j);
        if (Math.abs(q.ratePerSecond() - earlier.ratePerSecond()) < 1e-9) {
          throw new IllegalArgumentException("quotas " + earlier.name() + " and " + q.name()
              + " have the same rate of " + q.ratePerSecond() + " requests per second");
        }
      }
    }
  }

  public static WindowPolicy of(Quota... quotas) {
    return new WindowPolicy(List.of(quotas));
  }
}
