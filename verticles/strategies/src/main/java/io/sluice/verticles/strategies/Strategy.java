package io.sluice.verticles.strategies;

/**
 * A rate-limit algorithm bound to its policy: a pure function of (stored state, now, cost) with no
 * clock, no storage and no shared mutable state. The caller reads the stored state (null when the
 * key is absent or expired), reads its own injectable clock once, calls {@link #allow} and, when
 * the {@link Outcome} carries a new state, writes it with a compare-and-set against the exact string
 * it read, retrying from the read when the compare fails. Instances are immutable and thread-safe.
 *
 * <p>A stored state that does not decode is never treated as absent: every method throws {@link
 * MalformedStateException} until the record expires or is deleted.
 */
public interface Strategy {

  /** The strategy's name: {@code token_bucket}, {@code fixed_window}, {@code leaky_bucket}, {@code gcra}, {@code composite}, {@code decaying_rate} or {@code sliding_window}. */
  String name();

  /**
   * The longest state {@link #allow} can write, in bytes (states are ASCII): what a store must be
   * able to hold, and a Throttr GET to announce, for this policy.
   */
  int maxStateLength();

  /**
   * Decides one request of {@code cost} units (upstream requests always cost 1) and, if it is
   * admitted, the state to store.
   *
   * @param state the stored state, or null when there is none
   * @param nowNs the caller's clock, nanoseconds since the Unix epoch
   * @param cost units the request consumes, at least 1
   * @throws MalformedStateException if {@code state} does not decode
   * @throws IllegalArgumentException if {@code cost < 1}
   */
  Outcome allow(String state, long nowNs, long cost);

  /** {@link #allow(String, long, long)} with cost 1. */
  default Outcome allow(String state, long nowNs) {
    return allow(state, nowNs, 1);
  }

  /**
   * Reports what a request of cost 1 would see, consuming nothing and writing nothing.
   *
   * @throws MalformedStateException if {@code state} does not decode
   */
  Decision peek(String state, long nowNs);


  /** Rejects costs below 1; every strategy calls it first. */
  static void requireCost(long cost) {
    if (cost < 1) {
      throw new IllegalArgumentException("cost must be at least 1, was " + cost);
    }
  }
}
