package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.UdpState;

/**
 * One read-compute-write step on the rate state of one key, run by a {@link StateStore} atomically
 * with respect to every other step on the same key. It must be a pure function of its argument (it
 * may run on the store's thread, e.g. a storage shard's).
 *
 * @param <R> what the step reports back to the caller
 */
@FunctionalInterface
public interface StateTransition<R> {

  /**
   * @param current the stored state, or {@code null} when the key has none (never seen, or expired)
   * @return what to store and what to report
   */
  Outcome<R> apply(UdpState current);

  /**
   * @param stateToStore the new state, or {@code null} to leave the stored state (and its expiry)
   *                     untouched
   * @param ttlMillis    how long the new state must be kept after it is written, when idle; the
   *                     store may drop it afterwards (ignored when nothing is stored)
   * @param result       reported to the caller of {@link StateStore#update}
   * @param resultIfRefused reported instead when a full store refuses to keep {@code stateToStore}
   *                     (the gateway's shards under {@code --eviction reject})
   */
  record Outcome<R>(UdpState stateToStore, long ttlMillis, R result, R resultIfRefused) {

    public Outcome {
      if (stateToStore != null && ttlMillis <= 0) {
        throw new IllegalArgumentException("ttlMillis must be positive, got " + ttlMillis);
      }
    }

    public static <R> Outcome<R> store(UdpState state, long ttlMillis, R result) {
      return store(state, ttlMillis, result, result);
    }

    public static <R> Outcome<R> store(UdpState state, long ttlMillis, R result, R resultIfRefused) {
      return new Outcome<>(java.util.Objects.requireNonNull(state, "state"), ttlMillis, result, resultIfRefused);
    }

    public static <R> Outcome<R> leaveUnchanged(R result) {
      return new Outcome<>(null, 0, result, result);
    }

    public boolean leavesStateUnchanged() {
      return stateToStore == null;
    }
  }
}
