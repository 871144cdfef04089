package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.encoding.StateFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Dual strategy (spec §3.5): a fixed window primary and a token bucket, leaky bucket or GCRA
 * secondary, both of which must admit a request, stored as one value
 * {@code 51|<primaryState>$<secondaryState>} (an empty side is a fresh one) so that both
 * consumptions commit together in one compare-and-set. Results are prefixed {@code primary_} and
 * {@code secondary_}.
 *
 * <p>Allow, as upstream: peek the primary — if it denies, answer with its results alone; peek the
 * secondary — if it denies, answer with both peeks (so a token or leaky secondary reports reset =
 * now). Only then run both allows. Unlike upstream, which commits whatever the two allows did, both
 * allow decisions are checked before anything is written: if either denies (a leaky secondary with
 * a fractional level, or a cost above 1), nothing is written and the answer carries that allow's
 * results with the other side's peek. So there is never partial consumption. TTL: the longer of
 * the two sides'.
 *
 * <p>Peek always reports both sides. A value without the {@code 51|} header or the {@code $}
 * separator is malformed; upstream silently treats it as two fresh sides, which resets the limits.
 */
public final class Composite extends PolicyStrategy<Composite.Parts> {

  public static final String NAME = "composite";
  public static final String PRIMARY = "primary_";
  public static final String SECONDARY = "secondary_";

  /** What a composite is configured with: its two strategies. */
  public record Parts(FixedWindow primary, BucketStrategy secondary) {

    public Parts {
      Objects.requireNonNull(primary, "primary");
      Objects.requireNonNull(secondary, "secondary");
    }
  }

  /**
   * @param secondary a {@link TokenBucket}, {@link LeakyBucket} or {@link Gcra}
   * @throws IllegalArgumentException for any other secondary
   */
  public Composite(FixedWindow primary, Strategy secondary) {
    super(NAME, StateFormat.COMPOSITE, new Parts(primary, bucket(secondary)));
  }

  private static BucketStrategy bucket(Strategy secondary) {
    if (secondary instanceof BucketStrategy bucket) {
      return bucket;
    }
    throw new IllegalArgumentException("the secondary strategy must be a token bucket, leaky bucket"
        + " or GCRA, was " + Objects.requireNonNull(secondary, "secondary").name());
  }

  public FixedWindow primary() {
    return policy().primary();
  }

  public BucketStrategy secondary() {
    return policy().secondary();
  }

  @Override
  public int maxStateLength() {
    return header().length() + primary().maxStateLength() + 1 + secondary().maxStateLength();
  }

  @Override
  Outcome decide(String state, long nowNs, long cost) {
    FixedWindow primary = primary();
    BucketStrategy secondary = secondary();
    Sides sides = Sides.decode(state);
    Decision primaryPeek = primary.peek(sides.primary(), nowNs);
    if (!primaryPeek.allowed()) {
      return Outcome.unchanged(join(primaryPeek, null));
    }
    Decision secondaryPeek = secondary.peek(sides.secondary(), nowNs);
    if (!secondaryPeek.allowed()) {
      return Outcome.unchanged(join(primaryPeek, secondaryPeek));
    }
    Outcome primaryAllow = primary.allow(sides.primary(), nowNs, cost);
    if (!primaryAllow.allowed()) {
      return Outcome.unchanged(join(primaryAllow.decision(), null));
    }
    Outcome secondaryAllow = secondary.allow(sides.secondary(), nowNs, cost);
    if (!secondaryAllow.allowed()) {
      return Outcome.unchanged(join(primaryPeek, secondaryAllow.decision()));
    }
    String encoded = header() + primaryAllow.newState() + '$' + secondaryAllow.newState();
    Duration ttl = primaryAllow.ttl().compareTo(secondaryAllow.ttl()) >= 0
        ? primaryAllow.ttl() : secondaryAllow.ttl();
    return Outcome.write(join(primaryAllow.decision(), secondaryAllow.decision()), encoded, ttl);
  }

  @Override
  public Decision peek(String state, long nowNs) {
    Sides sides = Sides.decode(state);
    return join(primary().peek(sides.primary(), nowNs), secondary().peek(sides.secondary(), nowNs));
  }

  private static Decision join(Decision primaryDecision, Decision secondaryDecision) {
    List<Result> results = new ArrayList<>();
    for (Result r : primaryDecision.results()) {
      results.add(r.named(PRIMARY + r.name()));
    }
    if (secondaryDecision != null) {
      for (Result r : secondaryDecision.results()) {
        results.add(r.named(SECONDARY + r.name()));
      }
    }
    return new Decision(results);
  }

  /** The two sub-states of a composite value; null for a fresh side. */
  record Sides(String primary, String secondary) {

    /** Splits at the first {@code $}; an empty side is fresh; no value at all means both fresh. */
    static Sides decode(String state) {
      if (state == null) {
        return new Sides(null, null);
      }
      if (!state.startsWith(StateFormat.COMPOSITE)) {
        throw new MalformedStateException(NAME, state, "does not start with " + StateFormat.COMPOSITE);
      }
      int dollar = state.indexOf('$', StateFormat.COMPOSITE.length());
      if (dollar < 0) {
        throw new MalformedStateException(NAME, state, "no '$' between the two states");
      }
      String p = state.substring(StateFormat.COMPOSITE.length(), dollar);
      String s = state.substring(dollar + 1);
      return new Sides(p.isEmpty() ? null : p, s.isEmpty() ? null : s);
    }
  }
}
