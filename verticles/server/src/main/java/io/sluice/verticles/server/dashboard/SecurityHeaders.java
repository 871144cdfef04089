package io.sluice.verticles.server.dashboard;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Headers that keep the dashboard's page and API from being used by other sites: the page runs only
 * its own scripts and styles and talks only to its own origin (Content-Security-Policy), it is never
 * framed (clickjacking: {@code X-Frame-Options} and {@code frame-ancestors}), and no response is
 * sniffed into a type it was not sent as ({@code nosniff}).
 */
final class SecurityHeaders implements Handler<RoutingContext> {

  /** The page is ES modules and one stylesheet from 'self'; the favicon is a data: URL; live data comes over SSE and WebSocket. */
  static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

  @Override
  public void handle(RoutingContext context) {
    context.response()
        .putHeader("Content-Security-Policy", POLICY)
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
    context.next();
  }
}
