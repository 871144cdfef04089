package io.sluice.protocol.udp.rules;

/**
 * One row of the rule table (spec §5): which limit applies to keys matching {@code pattern}.
 *
 * @param pattern        matched against the rewritten key; {@code null} for the default rule, which
 *                       applies to every key no other rule matched
 * @param limit          events per period at which the key is over ({@code rate ≥ limit}); reported
 *                       with {@code %.1f}
 * @param periodSeconds  the period, &gt; 0; reported with {@code %d}
 * @param strict         refused uses count too (per-user limits) instead of being dropped (shared limits)
 * @param keepStats      count requests, refusals and the maximum rate for {@code get_stats}
 * @param fixedReply     answer this verdict without rate state, or {@code null} to run the algorithm
 * @param substituteKey  the key to keep state and statistics under instead of the rewritten key,
 *                       or {@code null}
 * @param algorithm      how uses are measured; a {@link RuleAlgorithm#SLIDING_WINDOW sliding window}
 *                       needs a whole limit ≥ 1 and cannot be strict (it never counts a refusal)
 */
public record Rule(KeyPattern pattern, double limit, double periodSeconds, boolean strict, boolean keepStats,
    FixedReply fixedReply, String substituteKey, RuleAlgorithm algorithm) {

  public Rule {
    if (!Double.isFinite(limit) || limit < 0) {
      throw new IllegalArgumentException("limit must be a finite number ≥ 0, got " + limit);
    }
    if (!Double.isFinite(periodSeconds) || periodSeconds <= 0) {
      throw new IllegalArgumentException("period must be a finite number of seconds > 0, got " + periodSeconds);
    }
    if (fixedReply != null && (!Double.isFinite(fixedReply.rate()) || fixedReply.rate() < 0)) {
      throw new IllegalArgumentException("fixed reply rate must be a finite number ≥ 0, got " + fixedReply.rate());
    }
    java.util.Objects.requireNonNull(algorithm, "algorithm");
    if (algorithm == RuleAlgorithm.SLIDING_WINDOW) {
      if (!(limit >= 1) || limit != Math.rint(limit)) {
        throw new IllegalArgumentException("a sliding window's limit must be a whole number ≥ 1, got " + limit);
      }
      if (strict) {
        throw new IllegalArgumentException("a sliding window cannot be strict: it never counts a refused use");
      }
    }
    limit += 0.0; // -0.0 → 0.0, so that it prints as 0.0
  }

  /** A rule of the protocol's own decaying rate. */
  public Rule(KeyPattern pattern, double limit, double periodSeconds, boolean strict, boolean keepStats,
      FixedReply fixedReply, String substituteKey) {
    this(pattern, limit, periodSeconds, strict, keepStats, fixedReply, substituteKey, RuleAlgorithm.DECAYING_RATE);
  }

  /** A rate-limited rule with no statistics and no key substitution. */
  public static Rule limit(String pattern, double limit, double periodSeconds, boolean strict) {
    return new Rule(KeyPattern.compile(pattern), limit, periodSeconds, strict, false, null, null);
  }

  /** A rate-limited default rule (no pattern), with no statistics and no key substitution. */
  public static Rule forAnyKey(double limit, double periodSeconds, boolean strict) {
    return new Rule(null, limit, periodSeconds, strict, false, null, null);
  }

  /** The original's default: {@code ok N 0.0 1.0 1}, counted under the key {@code default}. */
  public static Rule allowAllDefault() {
    return new Rule(null, 1, 1, false, true, FixedReply.ALLOW, "default");
  }

  public boolean isDefault() {
    return pattern == null;
  }

  public boolean hasFixedReply() {
    return fixedReply != null;
  }

  /** The key state and statistics are kept under, for a key rewritten to {@code rewrittenKey}. */
  public String stateKeyFor(String rewrittenKey) {
    return substituteKey == null ? rewrittenKey : substituteKey;
  }

  public Rule withKeepStats(boolean keep) {
    return new Rule(pattern, limit, periodSeconds, strict, keep, fixedReply, substituteKey, algorithm);
  }

  public Rule withSubstituteKey(String key) {
    return new Rule(pattern, limit, periodSeconds, strict, keepStats, fixedReply, key, algorithm);
  }

  public Rule withFixedReply(FixedReply reply) {
    return new Rule(pattern, limit, periodSeconds, strict, keepStats, reply, substituteKey, algorithm);
  }

  public Rule withAlgorithm(RuleAlgorithm measuredBy) {
    return new Rule(pattern, limit, periodSeconds, strict, keepStats, fixedReply, substituteKey, measuredBy);
  }
}
