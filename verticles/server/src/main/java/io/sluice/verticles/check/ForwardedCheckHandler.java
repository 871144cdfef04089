package io.sluice.verticles.check;

import io.sluice.verticles.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /v1/check/{policy}[/original/path]?key=…&cost=…}, any method: the check for proxies that
 * forward a request rather than compose one — nginx {@code auth_request} (a GET subrequest) and
 * Envoy {@code ext_authz} (the original method, its path appended to the configured prefix). The
 * key comes from the policy's extractor: {@code ?key=}, the forwarded headers, the client address,
 * or segments of the original path ({@code X-Original-URI}, else what follows the policy in the
 * URL). Status and headers carry the answer; the JSON body is the same as {@code POST /v1/check}'s.
 */
final class ForwardedCheckHandler implements Endpoint.Action {

  static final String PREFIX = "/v1/check/";

  private final CheckPolicies policies;
  private final ShardLimits limits;
  private final CheckDecisions decisions;

  ForwardedCheckHandler(CheckPolicies policies, ShardLimits limits, CheckDecisions decisions) {
    this.policies = policies;
    this.limits = limits;
    this.decisions = decisions;
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    decisions.request("check");
    HttpServerRequest http = context.request();
    String path = http.path();
    String rest = path.length() > PREFIX.length() ? path.substring(PREFIX.length()) : "";
    int slash = rest.indexOf('/');
    String policy = PathText.decode(slash < 0 ? rest : rest.substring(0, slash));
    String originalPath = slash < 0 ? null : rest.substring(slash);
    CheckRequest check = CheckRequest.forwarded(http, policy, originalPath, policies);
    return CheckHandler.enforce(context, check, limits, decisions);
  }
}
