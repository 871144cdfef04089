package io.sluice.verticles.check;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /v1/peek} {@code {"policy":"…","key":"…"}}: what a check of cost 1 would answer,
 * consuming nothing and writing nothing. Always 200; {@code allowed} in the body and the header
 * fields tell the rest.
 */
final class PeekHandler implements Endpoint.Action {

  private final CheckPolicies policies;
  private final ShardLimits limits;

  PeekHandler(CheckPolicies policies, ShardLimits limits) {
    this.policies = policies;
    this.limits = limits;
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    HttpServerRequest http = context.request();
    return JsonBody.read(http).compose(body -> {
      CheckRequest peek = CheckRequest.fromJson(body, CheckRequest.PEEK_FIELDS, http, policies);
      return limits.run(LimitTask.peek(peek.recordKey(), peek.target().policy().strategy()))
          .map(done -> {
            DecisionResponse.send(context.response(), peek.target(), done.decision(), done.nowNs(), false);
            return null;
          });
    });
  }
}
