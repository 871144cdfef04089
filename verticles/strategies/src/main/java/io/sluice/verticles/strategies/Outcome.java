package io.sluice.verticles.strategies;

import java.time.Duration;
import java.util.Objects;

/**
 * What one {@link Strategy#allow} call decided, and what to store: either nothing ({@link
 * #changed()} false — denials never write, so a stored TTL is not extended) or a new state string
 * with the TTL to give the record.
 *
 * @param decision the decision to report to the client
 * @param newState the state to store, or null for "unchanged"
 * @param ttl how long the stored record should live, or null for "unchanged"
 */
public record Outcome(Decision decision, String newState, Duration ttl) {

  public Outcome {
    Objects.requireNonNull(decision, "decision");
    if ((newState == null) != (ttl == null)) {
      throw new IllegalArgumentException("a new state needs a TTL and only a new state has one");
    }
    if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
      throw new IllegalArgumentException("TTL must be positive, was " + ttl);
    }
  }

  /** A decision that leaves the stored state as it was. */
  public static Outcome unchanged(Decision decision) {
    return new Outcome(decision, null, null);
  }

  /** A decision whose new state must be stored (compare-and-set) with this TTL. */
  public static Outcome write(Decision decision, String newState, Duration ttl) {
    return new Outcome(decision, Objects.requireNonNull(newState, "newState"), ttl);
  }

  /** Whether there is a new state to store. */
  public boolean changed() {
    return newState != null;
  }

  /** Shorthand for {@code decision().allowed()}. */
  public boolean allowed() {
    return decision.allowed();
  }
}
