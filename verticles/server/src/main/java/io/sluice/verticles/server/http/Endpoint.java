package io.sluice.verticles.server.http;

import io.sluice.verticles.server.dispatch.ShardFailure;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What every endpoint of the API does the same way: refuse other methods (405), require the bearer
 * token when one is configured (401), and answer any failure as a JSON error. The endpoint itself is
 * an {@link Action} that answers the request. It serves a router's route, or a request taken before
 * the router ({@link DirectRoutes}): an action sees the request only.
 */
public final class Endpoint implements Handler<RoutingContext> {

  private static final System.Logger LOG = System.getLogger(Endpoint.class.getName());
  public static final String JSON = "application/json";
  private static final CharSequence WWW_AUTHENTICATE = HttpHeaders.createOptimized("WWW-Authenticate");

  /** Answers one routed request, or fails (synchronously or not) with an {@link ApiError}. */
  @FunctionalInterface
  public interface Action {
    Future<Void> serve(RoutingContext context);
  }

  /** An {@link Action} that needs the request only, so it can also serve before the router ({@link DirectRoutes}). */
  @FunctionalInterface
  public interface RequestAction {
    Future<Void> serve(HttpServerRequest request);
  }

  private final List<HttpMethod> methods;
  private final String allow;
  private final BearerToken token;
  private final Action routed;
  private final RequestAction direct;

  /**
   * @param methods the methods served; empty for any (a proxy forwards the original request's)
   * @param token   null when the endpoint is public
   */
  public Endpoint(List<HttpMethod> methods, BearerToken token, Action action) {
    this(methods, token, action, null);
  }

  /** An endpoint that serves routed requests and, through {@link #handle(HttpServerRequest)}, direct ones. */
  public static Endpoint ofRequest(List<HttpMethod> methods, BearerToken token, RequestAction action) {
    return new Endpoint(methods, token, context -> action.serve(context.request()), action);
  }

  private Endpoint(List<HttpMethod> methods, BearerToken token, Action routed, RequestAction direct) {
    this.methods = List.copyOf(methods);
    this.allow = methods.stream().map(HttpMethod::name).collect(Collectors.joining(", "));
    this.token = token;
    this.routed = routed;
    this.direct = direct;
  }

  @Override
  public void handle(RoutingContext context) {
    handle(context.request(), () -> routed.serve(context));
  }

  /** A request taken before the router; only for an endpoint made with a {@link RequestAction}. */
  public void handle(HttpServerRequest request) {
    handle(request, () -> direct.serve(request));
  }

  private void handle(HttpServerRequest request, Supplier<Future<Void>> action) {
    HttpMethod method = request.method();
    if (!methods.isEmpty() && !methods.contains(method)) {
      request.response().putHeader(HttpHeaders.ALLOW, allow);
      send(request.response(), new ApiError(405, method.name() + " is not served here; use " + allow, null));
      return;
    }
    if (token != null && !admitted(request)) {
      return;
    }
    try {
      action.get().onFailure(failure -> fail(request, failure));
    } catch (RuntimeException failure) {
      fail(request, failure);
    }
  }

  /** Answers 401 for a missing or wrong token, 429 while the client's address is refused. */
  private boolean admitted(HttpServerRequest request) {
    switch (token.verify(request)) {
      case ADMITTED:
        return true;
      case REFUSED:
        sendRefused(request.response(), token, request);
        return false;
      default:
        request.response().putHeader(WWW_AUTHENTICATE, "Bearer realm=\"sluice\"");
        send(request.response(), new ApiError(401, "this server requires Authorization: Bearer <token>", null));
        return false;
    }
  }

  /** 429 with Retry-After, for a client whose address has presented too many wrong tokens. */
  public static void sendRefused(HttpServerResponse response, BearerToken token, HttpServerRequest request) {
    long seconds = token.refusedForSeconds(request.remoteAddress().hostAddress());
    response.putHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
    send(response, new ApiError(429, "too many wrong tokens from this address; retry in " + seconds + " s", null));
  }

  private static void fail(HttpServerRequest request, Throwable failure) {
    ApiError error;
    if (failure instanceof ApiError refusal) {
      error = refusal;
    } else if (failure instanceof ShardFailure onShard) {
      // The shard has logged what it threw.
      error = new ApiError(500, onShard.getMessage(), null);
    } else {
      LOG.log(System.Logger.Level.ERROR, "API failure on " + request.path(), failure);
      error = new ApiError(500, "internal error: " + failure, null);
    }
    HttpServerResponse response = request.response();
    if (!response.ended() && !response.closed()) {
      if (error.status() == 413) {
        // The rest of the body is still on its way: do not leave it to be read as the next request.
        response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
      }
      send(response, error);
    }
  }

  public static void send(HttpServerResponse response, ApiError error) {
    response.setStatusCode(error.status())
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .end(error.body().toBuffer());
  }
}
