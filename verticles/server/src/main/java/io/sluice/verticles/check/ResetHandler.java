package io.sluice.verticles.check;

import io.sluice.verticles.http.ApiError;
import io.sluice.verticles.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code DELETE /v1/limits/{policy}/{key}}: forgets a key's state (removes its record), so its
 * next check starts fresh. {@code key} is the key as the policy built it (percent-encoded; it may
 * contain {@code /}). Answers {@code {"policy":…,"key":…,"removed":true|false}}.
 */
final class ResetHandler implements Endpoint.Action {

  static final String PREFIX = "/v1/limits/";

  private final CheckPolicies policies;
  private final ShardLimits limits;
  private final CheckDecisions decisions;

  ResetHandler(CheckPolicies policies, ShardLimits limits, CheckDecisions decisions) {
    this.policies = policies;
    this.limits = limits;
    this.decisions = decisions;
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    decisions.request("reset");
    String path = context.request().path();
    String rest = path.length() > PREFIX.length() ? path.substring(PREFIX.length()) : "";
    int slash = rest.indexOf('/');
    String policy = PathText.decode(slash < 0 ? rest : rest.substring(0, slash));
    String key = slash < 0 ? "" : PathText.decode(rest.substring(slash + 1));
    policies.get(policy);
    if (key.isEmpty()) {
      throw ApiError.badRequest("missing key: DELETE /v1/limits/{policy}/{key}");
    }
    return limits.run(LimitTask.reset(LimitKey.of(policy, key))).map(done -> {
      context.response().putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON)
          .end(new JsonObject().put("policy", policy).put("key", key).put("removed", done.removed()).toBuffer());
      return null;
    });
  }
}
