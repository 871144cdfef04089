package io.sluice.verticles.server;

import io.sluice.verticles.server.http.ProtectedMode;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis's warning: a listener reachable from the network, and no client has to prove who it is.
 * The Throttr and UDP protocols have no authentication of their own, so only mutual TLS (for
 * Throttr) or the network itself protects them.
 */
final class ExposedListeners {

  /** The server's own logger, as before this warning had a class of its own. */
  private static final System.Logger LOG = System.getLogger(SluiceServer.class.getName());

  private ExposedListeners() {
  }

  static void warn(ServerSettings settings, boolean authenticated, ProtectedMode protectedMode) {
    List<String> exposed = new ArrayList<>();
    if (!ProtectedMode.bindsLoopbackOnly(settings.tcp().bind())) {
      exposed.add("Throttr on " + settings.tcp().bind());
    }
    if (!ProtectedMode.bindsLoopbackOnly(settings.http().bind())) {
      exposed.add("HTTP on " + settings.http().bind());
    }
    if (!ProtectedMode.bindsLoopbackOnly(settings.udp().bind())) {
      exposed.add("UDP on " + settings.udp().bind());
    }
    if (!exposed.isEmpty() && !authenticated) {
      LOG.log(System.Logger.Level.WARNING, String.join(", ", exposed) + " listen beyond loopback with neither "
          + "--auth-token nor --tls-client-ca: anyone who reaches them may use them (Throttr and UDP have no "
          + "authentication in their protocols). " + (protectedMode.active()
          ? "Protected mode: the dashboard API and the WebSocket bridge take writes from loopback clients only."
          : "Protected mode is off (--protected-mode no): the dashboard API and WebSocket bridge take writes from anyone."));
    }
  }
}
