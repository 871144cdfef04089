package io.sluice.verticles.server.tls;

import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.time.Clock;

/**
 * Connections that failed before the listener handed them over, most of them never becoming TLS:
 * a plain-text client on a TLS port, a client whose certificate the client CA did not sign, a
 * handshake that timed out. Netty closes each; this logs it in one WARNING line, at most one a
 * second for the listener (a scanner can open thousands), counting those left out.
 */
public final class HandshakeFailures {

  private static final System.Logger LOG = System.getLogger(HandshakeFailures.class.getName());

  private final String listener;
  private final LogLimiter limiter;

  public HandshakeFailures(String listener, Clock clock) {
    this.listener = listener;
    this.limiter = new LogLimiter(clock, 1_000_000_000L);
  }

  /** For a server's {@code exceptionHandler}: errors before a connection is handed over. */
  public void failed(Throwable error) {
    String reason = reason(error);
    if (reason != null) {
      limiter.log(LOG, System.Logger.Level.WARNING, "closing " + listener + " connection: " + reason);
    } else {
      LOG.log(System.Logger.Level.DEBUG, () -> "closed " + listener + " connection: " + error);
    }
  }

  /** What the log line says; null for a close Sluice made itself or the peer's routine going away. */
  static String reason(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String name = root.getClass().getSimpleName();
    switch (name) {
      case "NotSslRecordException":
        return "not a TLS client (plain text on a TLS port)";
      case "SslHandshakeTimeoutException", "StacklessClosedChannelException", "ClosedChannelException":
        return "no TLS handshake within " + TlsSettings.HANDSHAKE_TIMEOUT_SECONDS + " s";
      case "PrematureChannelClosureException":
        // The request clock closed a slow client's connection and said so already.
        return null;
      default:
        if (root instanceof java.io.IOException) {
          return null;
        }
        return "TLS handshake failed: " + (root.getMessage() == null ? name : name + ": " + root.getMessage());
    }
  }
}
