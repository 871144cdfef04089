package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.DecayingRateEvaluation;
import io.sluice.verticles.engine.udprate.rate.RateEvaluation;
import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.UdpState;

/**
 * One use of a key's decaying rate (an {@code over_limit} step) as a {@link StateTransition} made
 * of data only: its numbers are all it needs, so it can run on whichever node owns the key (a
 * cluster sends them there), and the answer is the one the asking node would have computed.
 *
 * @param nowSeconds    when the request was handled, wall-clock seconds, as the engine reads its clock
 * @param limit         events per period at which the key is over
 * @param periodSeconds the period, &gt; 0
 * @param strict        whether refused uses are recorded too
 */
public record RateUse(double nowSeconds, double limit, double periodSeconds, boolean strict)
    implements StateTransition<RateEvaluation> {

  @Override
  public Outcome<RateEvaluation> apply(UdpState current) {
    // A sliding window's state, left by the rule before a reload changed algorithm, starts afresh.
    RateState rate = current instanceof RateState stored ? stored : null;
    RateEvaluation evaluation = DecayingRateEvaluation.evaluate(rate, nowSeconds, limit, periodSeconds, strict);
    if (evaluation.leavesStateUnchanged()) {
      return Outcome.leaveUnchanged(evaluation);
    }
    long ttlMillis = StateRetention.ttlMillis(evaluation.stateToStore(), periodSeconds);
    // A full store that refuses the state gets the answer "allowed": fail open, as nothing was counted.
    return Outcome.store(evaluation.stateToStore(), ttlMillis, evaluation,
        new RateEvaluation(evaluation.rate(), false, null));
  }
}
