package io.sluice.verticles.strategies.policy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.algorithm.BucketStrategy;
import io.sluice.verticles.strategies.algorithm.Composite;
import io.sluice.verticles.strategies.algorithm.DecayingRate;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;

import java.util.ArrayList;
import java.util.List;

/**
 * One limit of a policy as clients are told about it: a quota of {@code quota} requests per
 * {@code windowSeconds} (the {@code q} and {@code w} of a RateLimit-Policy item). {@code result}
 * is the name of the strategy's {@link Result} it describes ({@code default}, a quota name, or
 * {@code primary_}/{@code secondary_} prefixed in a composite).
 *
 * <p>A bucket (token, leaky, GCRA) of burst B refilling at r per second admits B requests at once
 * and B per B/r seconds after that, so it is advertised as B per ⌈B/r⌉ s; a decaying rate of L per
 * period P as ⌈L⌉ per P. The window is whole seconds, at least 1, as the header requires.
 */
public record AdvertisedLimit(String result, long quota, long windowSeconds) {

  /** Every limit of a strategy, in the order of its results. */
  public static List<AdvertisedLimit> of(Strategy strategy) {
    List<AdvertisedLimit> limits = new ArrayList<>();
    add(limits, "", strategy);
    return List.copyOf(limits);
  }

  private static void add(List<AdvertisedLimit> limits, String prefix, Strategy strategy) {
    if (strategy instanceof FixedWindow window) {
      for (Quota quota : window.policy().quotas()) {
        limits.add(new AdvertisedLimit(prefix + quota.name(), quota.limit(), ceilSeconds(quota.windowNs() / 1e9)));
      }
    } else if (strategy instanceof SlidingWindow sliding) {
      Quota quota = sliding.policy();
      limits.add(new AdvertisedLimit(prefix + Result.DEFAULT, quota.limit(), ceilSeconds(quota.windowNs() / 1e9)));
    } else if (strategy instanceof BucketStrategy bucket) {
      BucketPolicy policy = bucket.policy();
      limits.add(new AdvertisedLimit(prefix + Result.DEFAULT, policy.burst(), ceilSeconds(policy.burst() / policy.rate())));
    } else if (strategy instanceof Composite composite) {
      add(limits, prefix + Composite.PRIMARY, composite.primary());
      add(limits, prefix + Composite.SECONDARY, composite.secondary());
    } else if (strategy instanceof DecayingRate decaying) {
      limits.add(new AdvertisedLimit(prefix + Result.DEFAULT, (long) Math.ceil(decaying.policy().limit()),
          ceilSeconds(decaying.policy().periodSeconds())));
    } else {
      throw new IllegalArgumentException("no advertised form for strategy " + strategy.name());
    }
  }

  private static long ceilSeconds(double seconds) {
    return Math.max(1, (long) Math.ceil(seconds));
  }
}
