package io.sluice.verticles.server.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Supplier;

/**
 * Something served on the HTTP port (the WebSocket bridge, the check API, the dashboard, metrics):
 * it adds its routes to the router of each HTTP front instance, on that instance's event loop, so
 * per-connection state stays on one loop and each feature keeps its code in its own package.
 */
@FunctionalInterface
public interface HttpFeature {

  void mount(Router router);

  /** The paths this feature answers before the router, if any: the hot ones. Called before {@link #mount}. */
  default void mountDirect(DirectRoutes routes) {
  }

  /** One handler at one path (any method); {@code handler} is called once per front instance. */
  static HttpFeature at(String path, Supplier<Handler<RoutingContext>> handler) {
    return router -> router.route(path).handler(handler.get());
  }
}
