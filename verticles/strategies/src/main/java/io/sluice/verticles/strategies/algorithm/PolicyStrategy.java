package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;
import java.util.Objects;

/**
 * What the strategies of this package share: a name, the immutable policy they are bound to, the
 * header ({@code <id><version>|}) of the states they write, and the cost check that every allow
 * makes before deciding. Only this package's strategies extend it.
 *
 * @param <P> the policy: {@link io.sluice.verticles.strategies.BucketPolicy}, {@link
 *            io.sluice.verticles.strategies.WindowPolicy}, or a composite's two parts
 */
public abstract class PolicyStrategy<P> implements Strategy {

  private final String name;
  private final String header;
  private final P policy;

  PolicyStrategy(String name, String header, P policy) {
    this.name = name;
    this.header = header;
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  public final P policy() {
    return policy;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Outcome allow(String state, long nowNs, long cost) {
    Strategy.requireCost(cost);
    return decide(state, nowNs, cost);
  }

  /** {@link #allow} once the cost is known to be at least 1. */
  abstract Outcome decide(String state, long nowNs, long cost);

  final String header() {
    return header;
  }

  /** A stored {@code <header><value>|<atNs>} state; throws as {@link Level#decode} does. */
  final Level decodeLevel(String state) {
    return Level.decode(state, header, name);
  }

  final String encode(Level level) {
    return level.encode(header);
  }
}
