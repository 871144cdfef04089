package io.sluice.verticles.server.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The few paths a front answers before its router: the hot ones (the check API's), whose fixed
 * paths need no route matching, no routing context and no wrapped request. A path the router would
 * read differently once normalised ({@code .} or {@code ..} segments, empty segments, escapes in
 * the fixed part) is left to the router, so both ways in answer every request alike. Routes added
 * after a {@link #guardedBy guard} are guarded by it, as the router guards the routes mounted after
 * {@link RequestGuard}.
 */
public final class DirectRoutes {

  private record Route(String path, boolean prefix, Predicate<HttpServerRequest> guard,
                       Handler<HttpServerRequest> handler) {

    boolean matches(String requested) {
      if (!prefix) {
        return requested.equals(path);
      }
      // A name must follow the prefix, and the path stay free of what normalising would change.
      return requested.length() > path.length() && requested.startsWith(path)
          && requested.charAt(path.length()) != '/' && requested.indexOf("/.", path.length() - 1) < 0
          && requested.indexOf("//", path.length() - 1) < 0;
    }
  }

  private final List<Route> routes = new ArrayList<>();
  private Predicate<HttpServerRequest> guard = request -> true;

  /** @param guard answers a request it refuses itself and returns false */
  public void guardedBy(Predicate<HttpServerRequest> guard) {
    this.guard = guard;
  }

  /** Exactly {@code path}. */
  public void exact(String path, Handler<HttpServerRequest> handler) {
    routes.add(new Route(path, false, guard, handler));
  }

  /** {@code prefix} followed by a name (and anything after it). */
  public void prefix(String prefix, Handler<HttpServerRequest> handler) {
    routes.add(new Route(prefix, true, guard, handler));
  }

  /** @return whether a route took the request (and answered it, or had its guard refuse it) */
  boolean handle(HttpServerRequest request) {
    if (routes.isEmpty()) {
      return false;
    }
    String path = request.path();
    for (Route route : routes) {
      if (route.matches(path)) {
        if (route.guard().test(request)) {
          route.handler().handle(request);
        }
        return true;
      }
    }
    return false;
  }
}
