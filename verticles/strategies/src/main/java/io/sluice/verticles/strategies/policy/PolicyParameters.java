package io.sluice.verticles.strategies.policy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.algorithm.BucketStrategy;
import io.sluice.verticles.strategies.algorithm.Composite;
import io.sluice.verticles.strategies.algorithm.DecayingRate;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strategy's parameters as the config file spells them ({@code burst}, {@code rate},
 * {@code quotas: [{name, limit, window}]}, durations as {@code 10s}), for people reading what is in
 * effect: the dashboard's Limits view and the admin configuration dump. Plain maps, lists, numbers,
 * booleans and strings, in the file's field order.
 */
public final class PolicyParameters {

  private PolicyParameters() {
  }

  /** The fields of {@code strategy}, {@code strategy} itself first. */
  public static Map<String, Object> of(Strategy strategy) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("strategy", strategy.name());
    if (strategy instanceof FixedWindow window) {
      List<Object> quotas = new ArrayList<>();
      for (Quota quota : window.policy().quotas()) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("name", quota.name());
        one.put("limit", quota.limit());
        one.put("window", duration(quota.window()));
        quotas.add(one);
      }
      fields.put("quotas", quotas);
    } else if (strategy instanceof SlidingWindow sliding) {
      fields.put("limit", sliding.policy().limit());
      fields.put("window", duration(sliding.policy().window()));
    } else if (strategy instanceof BucketStrategy bucket) {
      BucketPolicy policy = bucket.policy();
      fields.put("burst", policy.burst());
      fields.put("rate", number(policy.rate()));
    } else if (strategy instanceof Composite composite) {
      Map<String, Object> primary = of(composite.primary());
      primary.remove("strategy");
      fields.put("primary", primary);
      fields.put("secondary", of(composite.secondary()));
    } else if (strategy instanceof DecayingRate decaying) {
      fields.put("limit", number(decaying.policy().limit()));
      fields.put("period", duration(decaying.policy().period()));
      fields.put("strict", decaying.policy().strict());
    }
    return fields;
  }

  /** The largest unit that spells the duration exactly: 500ms, 10s, 5m, 1h, 1d. */
  static String duration(Duration duration) {
    long millis = duration.toMillis();
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (millis % sizes[i] == 0) {
        return millis / sizes[i] + units[i];
      }
    }
    return millis + "ms";
  }

  /** A whole number as a long, a fraction as its shortest decimal. */
  private static Object number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Object) (long) value
        : new BigDecimal(Double.toString(value)).stripTrailingZeros();
  }
}
