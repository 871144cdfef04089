package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.core.http.HttpServerRequest;

/**
 * {@code DELETE /v1/limits/{policy}/{key}}: forgets a key's state (removes its record), so its
 * next check starts fresh. {@code key} is the key as the policy built it (percent-encoded; it may
 * contain {@code /}). Answers {@code {"policy":…,"key":…,"removed":true|false}}.
 */
record ResetHandler(CheckServices services) implements Endpoint.RequestAction {

  static final String PREFIX = "/v1/limits/";

  @Override
  public Future<Void> serve(HttpServerRequest request) {
    services.decisions().request("reset");
    PathText.Split path = PathText.split(request.path(), PREFIX);
    String policy = path.policy();
    String key = path.rest() == null ? "" : PathText.decode(path.rest().substring(1));
    services.policies().get(policy);
    if (key.isEmpty()) {
      throw ApiError.badRequest("missing key: DELETE /v1/limits/{policy}/{key}");
    }
    return services.run(LimitTask.reset(LimitKey.of(policy, key))).map(done -> {
      request.response().putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON)
          .end(new JsonObject().put("policy", policy).put("key", key).put("removed", done.removed()).toBuffer());
      return null;
    });
  }
}
