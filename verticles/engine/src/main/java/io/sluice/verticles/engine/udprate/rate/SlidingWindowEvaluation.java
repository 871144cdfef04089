package io.sluice.verticles.engine.udprate.rate;

import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;

import java.time.Duration;

/**
 * One {@code over_limit} use of a key whose rule chose the sliding window (a Sluice extension):
 * the check API's {@link SlidingWindow} decides, on its own state text ({@code 71|previous|current|start}),
 * so the count is exact and a heal merges it as any check API state. The protocol's reply wants a
 * rate, not a remaining quota: it is the weighted two-window count at {@code now}, this use included
 * when admitted, in requests per window (the rule's period), comparable with the rule's limit.
 */
public final class SlidingWindowEvaluation {

  /** The quota's name is never shown: the UDP reply has no place for it. */
  private static final String QUOTA_NAME = "udp";
  private static final long USE = 1;

  private SlidingWindowEvaluation() {
  }

  /**
   * The strategy for a rule's limit over its period.
   *
   * @throws IllegalArgumentException when the limit is not a whole number ≥ 1 or the period is
   *                                  not positive (rule tables refuse such rules when loaded)
   */
  public static SlidingWindow windowFor(double limit, double periodSeconds) {
    if (!(limit >= 1) || limit != Math.rint(limit) || limit > Long.MAX_VALUE) {
      throw new IllegalArgumentException("a sliding window's limit must be a whole number ≥ 1, got " + limit);
    }
    if (!(periodSeconds > 0)) {
      throw new IllegalArgumentException("Bad period: " + periodSeconds);
    }
    return new SlidingWindow(new Quota(QUOTA_NAME, (long) limit, Duration.ofNanos(Math.round(periodSeconds * 1e9))));
  }

  /**
   * @param stored the key's stored state text, or {@code null} when it has none
   * @param nowNs  wall-clock time, nanoseconds since the epoch, as the engine reads its clock
   */
  public static WindowEvaluation evaluate(SlidingWindow window, String stored, long nowNs) {
    Outcome outcome = window.allow(stored, nowNs, USE);
    String after = outcome.changed() ? outcome.newState() : stored;
    return new WindowEvaluation(window.estimate(after, nowNs), !outcome.allowed(), outcome.newState(), outcome.ttl());
  }

  /**
   * The outcome of one use.
   *
   * @param rate         the weighted count at the use's time, reported in the reply
   * @param over         the use was refused (a refusal is never counted, as in the check API)
   * @param stateToStore the new state text, or {@code null} to leave the stored state as it was
   * @param ttl          how long the new state must be kept when idle (ignored when nothing is stored)
   */
  public record WindowEvaluation(double rate, boolean over, String stateToStore, Duration ttl) {

    public boolean leavesStateUnchanged() {
      return stateToStore == null;
    }
  }
}
