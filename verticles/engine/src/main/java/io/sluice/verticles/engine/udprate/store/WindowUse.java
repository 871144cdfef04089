package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.RateEvaluation;
import io.sluice.verticles.engine.udprate.rate.SlidingWindowEvaluation;
import io.sluice.verticles.engine.udprate.rate.SlidingWindowEvaluation.WindowEvaluation;
import io.sluice.verticles.engine.udprate.rate.UdpState;
import io.sluice.verticles.engine.udprate.rate.WindowState;

/**
 * One use of a sliding window rule's key as a {@link StateTransition} made of data only, like
 * {@link RateUse}: it runs on whichever node owns the key and answers what the asking node would
 * have. The answer is a {@link RateEvaluation} whose rate is the weighted two-window count.
 *
 * @param nowNs         when the request was handled, wall-clock nanoseconds, as the engine reads its clock
 * @param limit         admitted uses per sliding period, a whole number ≥ 1
 * @param periodSeconds the period, &gt; 0
 */
public record WindowUse(long nowNs, double limit, double periodSeconds) implements StateTransition<RateEvaluation> {

  @Override
  public Outcome<RateEvaluation> apply(UdpState current) {
    // A decaying rate's state, left by the rule before a reload changed algorithm, starts afresh.
    String stored = current instanceof WindowState window ? window.text() : null;
    WindowEvaluation evaluation = SlidingWindowEvaluation.evaluate(
        SlidingWindowEvaluation.windowFor(limit, periodSeconds), stored, nowNs);
    RateEvaluation answer = new RateEvaluation(evaluation.rate(), evaluation.over(), null);
    if (evaluation.leavesStateUnchanged()) {
      return Outcome.leaveUnchanged(answer);
    }
    // A full store that refuses the state gets the answer "allowed": fail open, as nothing was counted.
    return Outcome.store(new WindowState(evaluation.stateToStore()), evaluation.ttl().toMillis(), answer,
        new RateEvaluation(evaluation.rate(), false, null));
  }
}
