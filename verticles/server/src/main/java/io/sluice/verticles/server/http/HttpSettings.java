package io.sluice.verticles.server.http;

import java.util.List;
import java.util.Optional;

/**
 * The HTTP front: one port for the WebSocket bridge, the dashboard, the check API and metrics.
 *
 * @param bind           the address listened on, which is also served as a Host name when it is one
 * @param allowedOrigins browser origins allowed to change state (and open a WebSocket) besides the
 *                       page's own; empty means same origin only, {@code *} allows any
 * @param authToken      when present, every HTTP and WebSocket client must present it
 * @param allowedHosts   Host names served besides localhost, IP addresses and the bind address;
 *                       {@code *} serves any (see {@link RequestGuard})
 */
public record HttpSettings(String bind, int port, List<String> allowedOrigins, Optional<String> authToken,
                           List<String> allowedHosts) {

  /** Only the Host names served by default. */
  public HttpSettings(String bind, int port, List<String> allowedOrigins, Optional<String> authToken) {
    this(bind, port, allowedOrigins, authToken, List.of());
  }
}
