package io.sluice.verticles.server.tcp;

/**
 * The Throttr TCP front's listener; what each connection may hold is in
 * {@link io.sluice.verticles.server.listener.ConnectionLimits}, shared with the WebSocket bridge.
 *
 * @param port 0 for one ephemeral port shared by every instance
 */
public record TcpSettings(String bind, int port) {

  /** Loopback, on an ephemeral port. */
  public static TcpSettings defaults() {
    return new TcpSettings("127.0.0.1", 0);
  }
}
