package io.sluice.verticles.engine.udprate.store;

/**
 * Where the rate state of the UDP protocol lives, keyed by the munged key (spec §4, §5), for a
 * store that answers on the caller's thread. {@link AsyncStateStore} is the same contract for a
 * store that answers later (storage shards on their own event loops).
 *
 * <p>Rate state is separate from the statistics of {@code get_stats}; {@code get_size} reports
 * {@link #size()}.
 */
public interface StateStore {

  /**
   * Runs {@code transition} on the key's state atomically: reads the state (absent or expired →
   * {@code null}), calls {@link StateTransition#apply} exactly once, then stores its
   * {@link StateTransition.Outcome#stateToStore() new state} with its TTL, or leaves the stored state
   * and its expiry untouched when there is none. No other update of the same key runs in between.
   *
   * @return the transition's {@link StateTransition.Outcome#result() result}
   * @throws RuntimeException whatever the transition threw; the stored state is then unchanged
   */
  <R> R update(String key, StateTransition<R> transition);

  /** Number of keys that have (unexpired) state. */
  long size();
}
