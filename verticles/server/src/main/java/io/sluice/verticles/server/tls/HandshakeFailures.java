package io.sluice.verticles.server.tls;

import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.time.Clock;

/**
 * Connections that never became TLS: a plain-text client on a TLS port, a client whose certificate
 * the client CA did not sign, a handshake that timed out. Netty closes each; this logs it in one
 * WARNING line, at most one a second for the listener (a scanner can open thousands), counting
 * those left out.
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
    limiter.log(LOG, System.Logger.Level.WARNING, "closing " + listener + " connection before TLS was set up: "
        + reason(error));
  }

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
      default:
        break;
    }
    return root.getMessage() == null ? name : name + ": " + root.getMessage();
  }
}
