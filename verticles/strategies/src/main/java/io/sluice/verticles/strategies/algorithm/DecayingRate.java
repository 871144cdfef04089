package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.DecayPolicy;
import io.sluice.verticles.strategies.DecayingRateFormula;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.encoding.StateFormat;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;
import java.time.Duration;
import java.util.Objects;

/**
 * Exponentially decaying average rate, the MusicBrainz rate-limit server's exim-style algorithm
 * (UDP spec §4), as a strategy so HTTP policies can use it. A Sluice extension: state
 * {@code 61|<rate>|<lastNs>} (Go 'g' float, int64), a header no upstream strategy uses.
 *
 * <p>A key never seen stores (now, 0) and measures rate 0. Otherwise, with
 * {@code i = (now − last)} in seconds ({@code 1e-9} if ≤ 0), {@code x = i / P} and
 * {@code a = exp(−x)}: {@code rate = cost × (1 − a) / x + a × rate_last}, in events per period. The
 * request is over — denied — when {@code rate ≥ limit}. The new (now, rate) is stored when not over,
 * or always for a strict policy; a non-strict denial leaves the state as it was.
 *
 * <p>Reported: limit = ⌈limit⌉; remaining = how many further back-to-back unit requests would stay
 * below the limit, approximately ⌈limit − rate⌉ − 1 (0 when denied); reset = now when allowed,
 * else now + retry-after, the wait until a request of the same cost would measure below the limit.
 * TTL: five periods beyond the moment a unit request would be admitted, at least 1 s.
 */
public final class DecayingRate implements Strategy {

  public static final String NAME = "decaying_rate";

  private final DecayPolicy policy;

  public DecayingRate(DecayPolicy policy) {
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  public DecayPolicy policy() {
    return policy;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int maxStateLength() {
    return StateFormat.Level.maxLength(StateFormat.DECAYING_RATE);
  }


  /**
   * One request's measurement, the server's {@code do_ratelimit}.
   *
   * @param rate the computed rate, reported even when it is not stored
   * @param over whether {@code rate ≥ limit}
   * @param stored the state after the call (the previous one when unchanged)
   * @param changed whether {@code stored} must be written
   */
  public record Measurement(double rate, boolean over, Level stored, boolean changed) {
  }

  /** Measures one request of {@code use} events (1 for the UDP protocol). */
  public Measurement measure(String state, long nowNs, double use) {
    if (state == null) {
      return new Measurement(0, 0 >= policy.limit(), new Level(0, nowNs), true);
    }
    Level last = decode(state);
    double rate = rateAt(last, nowNs, use);
    boolean over = rate >= policy.limit();
    if (!over || policy.strict()) {
      return new Measurement(rate, over, new Level(rate, nowNs), true);
    }
    return new Measurement(rate, true, last, false);
  }

  @Override
  public Outcome allow(String state, long nowNs, long cost) {
    Strategy.requireCost(cost);
    Measurement m = measure(state, nowNs, cost);
    long retryAfter = m.over() ? waitBelowLimit(m.stored(), nowNs, cost) : 0;
    Result result = new Result(Result.DEFAULT, !m.over(), limit(), m.over() ? 0 : remainingAfter(m.rate()),
        Nanos.add(nowNs, retryAfter), retryAfter);
    if (!m.changed()) {
      return Outcome.unchanged(Decision.of(result));
    }
    long unitWait = waitBelowLimit(m.stored(), nowNs, 1);
    long ttlNs = Math.max(Nanos.add(Nanos.mul(policy.period().toNanos(), 5), unitWait), Nanos.SECOND);
    return Outcome.write(Decision.of(result), m.stored().encode(StateFormat.DECAYING_RATE),
        Duration.ofNanos(ttlNs));
  }

  /** The rate a unit request would measure now; nothing is stored. */
  @Override
  public Decision peek(String state, long nowNs) {
    if (state == null) {
      return Decision.of(new Result(Result.DEFAULT, true, limit(), remainingAfter(-1), nowNs, 0));
    }
    Level last = decode(state);
    double rate = rateAt(last, nowNs, 1);
    boolean allowed = rate < policy.limit();
    long retryAfter = allowed ? 0 : waitBelowLimit(last, nowNs, 1);
    return Decision.of(new Result(Result.DEFAULT, allowed, limit(), allowed ? remainingAfter(rate - 1) : 0,
        Nanos.add(nowNs, retryAfter), retryAfter));
  }

  /** The decayed average a request of {@code use} events at {@code t} measures against {@code last}. */
  private double rateAt(Level last, long t, double use) {
    return DecayingRateFormula.decayed(last.value(), Nanos.seconds(Nanos.sub(t, last.atNs())), policy.periodSeconds(), use);
  }

  /** Further back-to-back unit requests that stay below the limit after one that measured {@code rate}. */
  private long remainingAfter(double rate) {
    return Math.max((long) Math.ceil(policy.limit() - rate) - 1, 0);
  }

  private long limit() {
    return (long) Math.ceil(policy.limit());
  }

  /** Wait from now until a request of {@code use} against {@code stored} measures below the limit. */
  private long waitBelowLimit(Level stored, long nowNs, double use) {
    return Nanos.waitUntil(nowNs, Nanos.add(nowNs, policy.period().toNanos()),
        t -> rateAt(stored, t, use) < policy.limit());
  }

  /** Rejects negative rates besides what {@link Level#decode} rejects. */
  private static Level decode(String state) {
    Level level = Level.decode(state, StateFormat.DECAYING_RATE, NAME);
    if (level.value() < 0) {
      throw new MalformedStateException(NAME, state, "negative rate");
    }
    return level;
  }
}
