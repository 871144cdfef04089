package io.sluice.verticles.strategies.policy;

import io.sluice.verticles.strategies.Strategy;

import java.util.List;
import java.util.Objects;

/**
 * A named rate limit of the check API: which strategy (with its parameters) and how the limited
 * key is built from a request. Its state for key K lives in the buffer record {@code rl:<name>:K}.
 * Immutable.
 */
public final class Policy {

  private final String name;
  private final Strategy strategy;
  private final KeyExtractor key;
  private final boolean legacyHeaders;
  private final boolean shadow;
  private final List<AdvertisedLimit> limits;
  private final long maxCost;
  private final OnFull onFull;

  /**
   * @param name          1 to 64 characters of {@code [A-Za-z0-9_.-]}: it appears in URLs, in
   *                      quoted header items and before the {@code :} of record keys, so it may
   *                      hold no {@code :}, {@code /} or quote
   * @param legacyHeaders also answer with {@code X-RateLimit-Limit/Remaining/Reset}
   */
  public Policy(String name, Strategy strategy, KeyExtractor key, boolean legacyHeaders) {
    this(name, strategy, key, legacyHeaders, false, OnFull.ALLOW);
  }

  /**
   * @param shadow decide, count and report as usual, but allow every request: a new limit is
   *               watched before it bites
   * @param onFull the answer when a full store refuses a new key's state
   */
  public Policy(String name, Strategy strategy, KeyExtractor key, boolean legacyHeaders, boolean shadow, OnFull onFull) {
    if (!isValidName(name)) {
      throw new IllegalArgumentException("policy name must be 1 to 64 characters of [A-Za-z0-9_.-], was '" + name + "'");
    }
    this.name = name;
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    this.key = Objects.requireNonNull(key, "key");
    this.legacyHeaders = legacyHeaders;
    this.shadow = shadow;
    this.limits = AdvertisedLimit.of(strategy);
    this.maxCost = limits.stream().mapToLong(AdvertisedLimit::quota).min().orElseThrow();
    this.onFull = Objects.requireNonNull(onFull, "onFull");
  }

  /** A policy whose key is the one the caller names, without legacy headers. */
  public Policy(String name, Strategy strategy) {
    this(name, strategy, KeyExtractor.PARAM, false);
  }

  public static boolean isValidName(String name) {
    return name != null && name.matches("[A-Za-z0-9_.-]{1,64}");
  }

  public String name() {
    return name;
  }

  public Strategy strategy() {
    return strategy;
  }

  public KeyExtractor key() {
    return key;
  }

  public boolean legacyHeaders() {
    return legacyHeaders;
  }

  /** Whether the policy only watches: its denials are counted and reported, and the request allowed. */
  public boolean shadow() {
    return shadow;
  }

  /** The answer when a full store refuses to keep a new key's state ({@code on-full}). */
  public OnFull onFull() {
    return onFull;
  }

  /** The limits clients are told about, in the order of the strategy's results. */
  public List<AdvertisedLimit> limits() {
    return limits;
  }

  /**
   * The largest cost one request may have: the smallest quota or burst of the policy. A larger
   * request could never be admitted, so it is refused as a bad request rather than denied forever.
   */
  public long maxCost() {
    return maxCost;
  }

  @Override
  public String toString() {
    return name + " (" + strategy.name() + ", key " + key.spelling() + (shadow ? ", shadow" : "") + ")";
  }
}
