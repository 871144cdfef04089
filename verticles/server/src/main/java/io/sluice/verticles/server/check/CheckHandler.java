package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.JsonBody;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.util.function.BiFunction;

/**
 * A check: consumes the request's cost from the key's limit if it has it; 200 when allowed, 429
 * when not, with the RateLimit header fields and the same JSON body either way. Two ways in, one
 * enforcement:
 *
 * <ul>
 *   <li>{@code POST /v1/check} {@code {"policy":"…","key":"…","cost":1}} ({@link #json});
 *   <li>{@code /v1/check/{policy}[/original/path]?key=…&cost=…}, any method ({@link #forwarded}):
 *       for proxies that forward a request rather than compose one — nginx {@code auth_request}
 *       (a GET subrequest) and Envoy {@code ext_authz} (the original method, its path appended to
 *       the configured prefix). The key comes from the policy's extractor: {@code ?key=}, the
 *       forwarded headers, the client address, or segments of the original path
 *       ({@code X-Original-URI}, else what follows the policy in the URL).
 * </ul>
 */
final class CheckHandler implements Endpoint.Action {

  static final String FORWARDED_PREFIX = "/v1/check/";

  private final CheckServices services;
  private final BiFunction<RoutingContext, CheckPolicies, Future<CheckRequest>> reader;

  private CheckHandler(CheckServices services, BiFunction<RoutingContext, CheckPolicies, Future<CheckRequest>> reader) {
    this.services = services;
    this.reader = reader;
  }

  /** {@code POST /v1/check} with a JSON body. */
  static CheckHandler json(CheckServices services) {
    return new CheckHandler(services, (context, policies) -> {
      HttpServerRequest http = context.request();
      return JsonBody.read(http, CheckRequest.EXAMPLE)
          .map(body -> CheckRequest.fromJson(body, CheckRequest.CHECK_FIELDS, http, policies));
    });
  }

  /** {@code /v1/check/{policy}[/original/path]}, as a proxy forwards it. */
  static CheckHandler forwarded(CheckServices services) {
    return new CheckHandler(services, (context, policies) -> {
      HttpServerRequest http = context.request();
      PathText.Split path = PathText.split(http.path(), FORWARDED_PREFIX);
      return Future.succeededFuture(CheckRequest.forwarded(http, path.policy(), path.rest(), policies));
    });
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    services.decisions().request("check");
    return reader.apply(context, services.policies()).compose(check -> services
        .run(LimitTask.allow(check.recordKey(), check.target().policy().strategy(), check.cost(),
            check.target().policy().onFull()))
        .map(done -> {
          services.decisions().record(check.target().policy().name(), done.decision().allowed());
          DecisionResponse.send(context.response(), check.target(), done.decision(), done.nowNs(), true);
          return null;
        }));
  }
}
