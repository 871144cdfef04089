package io.sluice.verticles.server.http;

import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Protected mode, after Redis's: when no client has to prove who it is (no {@code --auth-token}, no
 * {@code --tls-client-ca}), the dashboard API's writes and the WebSocket bridge's writes (publish,
 * binary Throttr frames) are taken only from loopback clients; reads stay open.
 * {@code --protected-mode no} lifts it for networks that are trusted as a whole.
 */
public final class ProtectedMode {

  /** What a refused client is told. */
  public static final String REASON = "protected mode: with neither --auth-token nor --tls-client-ca, "
      + "only loopback clients may change state (see --protected-mode)";

  private static final ProtectedMode OFF = new ProtectedMode(false);

  private final boolean active;

  private ProtectedMode(boolean active) {
    this.active = active;
  }

  /**
   * @param enabled       {@code --protected-mode}
   * @param authenticated clients must present a token or a client certificate
   */
  public static ProtectedMode of(boolean enabled, boolean authenticated) {
    return enabled && !authenticated ? new ProtectedMode(true) : OFF;
  }

  public static ProtectedMode off() {
    return OFF;
  }

  public boolean active() {
    return active;
  }

  /** True when a client at {@code peer} may not change state. */
  public boolean refusesWritesFrom(SocketAddress peer) {
    return active && !isLoopback(peer);
  }

  /** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms; a path-named (Unix) socket is local too. */
  public static boolean isLoopback(SocketAddress peer) {
    String host = peer.hostAddress();
    if (host == null) {
      return peer.isDomainSocket();
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException notALiteral) {
      return false;
    }
  }

  /** True for a bind address that only loopback clients can reach. */
  public static boolean bindsLoopbackOnly(String bind) {
    if (bind.equalsIgnoreCase("localhost")) {
      return true;
    }
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException unresolved) {
      return false;
    }
  }
}
