package io.sluice.verticles.websocket;

import io.sluice.verticles.http.BearerToken;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.net.URI;
import java.util.List;

/**
 * Who may open the bridge. Browsers send {@code Origin}: it must be the page's own origin (same
 * host and port as the request) or one of the configured origins, so another site's page cannot
 * drive a user's browser into Sluice. Clients that send no {@code Origin} (services) pass. With a
 * token configured, the client presents it as {@code Authorization: Bearer …} or in its first
 * message (browsers cannot set WebSocket headers).
 */
final class WebSocketAccess {

  private final List<String> allowedOrigins;
  private final BearerToken token;

  WebSocketAccess(List<String> allowedOrigins, BearerToken token) {
    this.allowedOrigins = allowedOrigins;
    this.token = token;
  }

  /** Null when the origin may connect, else the reason it may not. */
  String refusal(HttpServerRequest request) {
    String origin = request.getHeader(HttpHeaders.ORIGIN);
    if (origin == null || allowedOrigins.contains("*") || allowedOrigins.contains(origin)) {
      return null;
    }
    String host = request.getHeader(HttpHeaders.HOST);
    try {
      URI uri = URI.create(origin);
      String originHost = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
      if (host != null && originHost != null && originHost.equalsIgnoreCase(host)) {
        return null;
      }
    } catch (IllegalArgumentException e) {
      return "malformed Origin '" + origin + "'";
    }
    return "origin '" + origin + "' is not allowed";
  }

  BearerToken token() {
    return token;
  }
}
