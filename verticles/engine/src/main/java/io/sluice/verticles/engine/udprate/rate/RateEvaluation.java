package io.sluice.verticles.engine.udprate.rate;

/**
 * The outcome of one use of a key.
 *
 * @param rate          the computed rate, reported in the reply even when it is not stored
 * @param over          {@code rate >= limit}: the caller should refuse
 * @param stateToStore  the state to remember for the key, or {@code null} to leave the stored state
 *                      exactly as it was (a refused use of a non-strict key is not recorded)
 */
public record RateEvaluation(double rate, boolean over, RateState stateToStore) {

  public boolean leavesStateUnchanged() {
    return stateToStore == null;
  }
}
