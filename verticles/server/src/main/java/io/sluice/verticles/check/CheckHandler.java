package io.sluice.verticles.check;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /v1/check} {@code {"policy":"…","key":"…","cost":1}}: consumes {@code cost} units of
 * the key's limit if it has them; 200 when allowed, 429 when not.
 */
final class CheckHandler implements Endpoint.Action {

  private final CheckPolicies policies;
  private final ShardLimits limits;

  CheckHandler(CheckPolicies policies, ShardLimits limits) {
    this.policies = policies;
    this.limits = limits;
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    HttpServerRequest http = context.request();
    return JsonBody.read(http).compose(body -> {
      CheckRequest check = CheckRequest.fromJson(body, CheckRequest.CHECK_FIELDS, http, policies);
      return limits.run(LimitTask.allow(check.recordKey(), check.target().policy().strategy(), check.cost()))
          .map(done -> {
            DecisionResponse.send(context.response(), check.target(), done.decision(), done.nowNs(), true);
            return null;
          });
    });
  }
}
