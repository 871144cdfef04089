package io.sluice.verticles.strategies;

/**
 * A stored state that does not decode (upstream's {@code ErrStateParsing}, spec §5.3). It is an
 * error for the call, never a silent reset: it persists until the record's TTL expires or the key
 * is deleted.
 */
public final class MalformedStateException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String strategy;
  private final String state;

  public MalformedStateException(String strategy, String state, String reason) {
    super("failed to parse " + strategy + " state: invalid encoding (" + reason + ")");
    this.strategy = strategy;
    this.state = state;
  }

  /** The name of the strategy whose state failed to decode. */
  public String strategy() {
    return strategy;
  }

  /** The offending state string as read from storage. */
  public String state() {
    return state;
  }
}
