package io.sluice.verticles.check;

import io.sluice.verticles.http.JsonBody;
import io.sluice.verticles.http.Endpoint;
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
  private final CheckDecisions decisions;

  CheckHandler(CheckPolicies policies, ShardLimits limits, CheckDecisions decisions) {
    this.policies = policies;
    this.limits = limits;
    this.decisions = decisions;
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    decisions.request("check");
    HttpServerRequest http = context.request();
    return JsonBody.read(http, CheckRequest.EXAMPLE).compose(body ->
        enforce(context, CheckRequest.fromJson(body, CheckRequest.CHECK_FIELDS, http, policies), limits, decisions));
  }

  /** Consumes the check's cost if the key has it, answers the decision and counts it. */
  static Future<Void> enforce(RoutingContext context, CheckRequest check, ShardLimits limits, CheckDecisions decisions) {
    return limits.run(LimitTask.allow(check.recordKey(), check.target().policy().strategy(), check.cost()))
        .map(done -> {
          decisions.record(check.target().policy().name(), done.decision().allowed());
          DecisionResponse.send(context.response(), check.target(), done.decision(), done.nowNs(), true);
          return null;
        });
  }
}
