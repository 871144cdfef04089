package io.sluice.verticles.server.http;

import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;

import java.util.List;
import java.util.Optional;

/**
 * The HTTP front: one port for the WebSocket bridge, the dashboard, the check API and metrics.
 * Built with {@link #defaults()} and the {@code with…} methods.
 *
 * @param bind           the address listened on, which is also served as a Host name when it is one
 * @param allowedOrigins browser origins allowed to change state (and open a WebSocket) besides the
 *                       page's own; empty means same origin only, {@code *} allows any
 * @param authToken      when present, every HTTP and WebSocket client must present it
 * @param allowedHosts   Host names served besides localhost, IP addresses and the bind address;
 *                       {@code *} serves any (see {@link RequestGuard})
 */
public record HttpSettings(String bind, int port, List<String> allowedOrigins, Optional<String> authToken,
                           List<String> allowedHosts, WebSocketAccessSettings webSocket) {

  /** Loopback, on an ephemeral port; same origin only, no token, only the Host names served by default. */
  public static HttpSettings defaults() {
    return new HttpSettings("127.0.0.1", 0, List.of(), Optional.empty(), List.of(),
        WebSocketAccessSettings.defaults());
  }

  public HttpSettings withListener(String bind, int port) {
    return new HttpSettings(bind, port, allowedOrigins, authToken, allowedHosts, webSocket);
  }

  public HttpSettings withAllowedOrigins(List<String> allowedOrigins) {
    return new HttpSettings(bind, port, allowedOrigins, authToken, allowedHosts, webSocket);
  }

  public HttpSettings withAuthToken(Optional<String> authToken) {
    return new HttpSettings(bind, port, allowedOrigins, authToken, allowedHosts, webSocket);
  }

  public HttpSettings withAllowedHosts(List<String> allowedHosts) {
    return new HttpSettings(bind, port, allowedOrigins, authToken, allowedHosts, webSocket);
  }

  public HttpSettings withWebSocket(WebSocketAccessSettings webSocket) {
    return new HttpSettings(bind, port, allowedOrigins, authToken, allowedHosts, webSocket);
  }
}
