package io.sluice.verticles.engine.udprate;

/**
 * What the engine reports besides replies, for logging and metrics. Called on whichever thread
 * completes the request; implementations must be thread-safe and must not throw.
 */
public interface UdpEngineListener {

  /** Does nothing. */
  UdpEngineListener NONE = new UdpEngineListener() {
  };

  /** A datagram parsed as {@code command}; it will be answered (or not) as the protocol says. */
  default void requestReceived(io.sluice.protocol.udp.wire.UdpCommand command) {
  }

  /** One {@code over_limit} key was judged: over its limit (Y) or not (N). */
  default void verdict(boolean over) {
  }

  /**
   * No rule matched {@code originalKey} and the default rule applied (the original printed
   * "Warning: using default key").
   */
  default void defaultRuleUsed(String originalKey) {
  }

  /** A {@code check_limit} argument was unusable and got no reply (the original died instead). */
  default void checkLimitRejected(String argument, String reason) {
  }

  /** The state store (or a bug) failed a request; it got no reply, which clients treat as allowed. */
  default void requestFailed(Throwable failure) {
  }
}
