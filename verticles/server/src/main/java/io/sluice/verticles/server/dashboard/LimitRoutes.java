package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.strategies.policy.AdvertisedLimit;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.strategies.policy.PolicyParameters;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.concurrent.TimeUnit;

/**
 * The rate limits as the Limits view shows them: {@code GET /api/limits} (every policy with its
 * parameters, what it decided, its most-denied keys and the keys near their limit; the UDP
 * endpoint's verdicts) and {@code GET /api/history} (the last hour at 10-second steps).
 */
final class LimitRoutes {

  /** Keys shown per policy in each list. */
  static final int SHOWN_KEYS = 10;

  private final DashboardContext dashboard;
  private final DashboardData data;

  LimitRoutes(DashboardContext dashboard, DashboardData data) {
    this.dashboard = dashboard;
    this.data = data;
  }

  /** GET /api/limits */
  Future<Void> list(RoutingContext context) {
    long now = dashboard.instance().clock().epochNanos();
    JsonArray policies = new JsonArray();
    for (Policy policy : data.policies().all()) {
      LimitActivity.PolicyActivity activity = data.activity().policy(policy.name());
      JsonArray limits = new JsonArray();
      for (AdvertisedLimit limit : policy.limits()) {
        limits.add(new JsonObject().put("name", limit.result()).put("quota", limit.quota())
            .put("windowSeconds", limit.windowSeconds()));
      }
      JsonArray denied = new JsonArray();
      activity.mostDenied(SHOWN_KEYS).forEach(key ->
          denied.add(new JsonObject().put("key", key.key()).put("denied", key.denied())));
      JsonArray near = new JsonArray();
      activity.nearLimitKeys(now, SHOWN_KEYS).forEach(key -> near.add(new JsonObject()
          .put("key", key.key()).put("limit", key.limitName()).put("used", key.used()).put("of", key.limit())
          .put("percent", Math.round(100.0 * key.used() / key.limit()))
          .put("seenAtMillis", TimeUnit.NANOSECONDS.toMillis(key.seenAtNanos()))));
      policies.add(new JsonObject()
          .put("name", policy.name())
          .put("strategy", policy.strategy().name())
          .put("parameters", new JsonObject(PolicyParameters.of(policy.strategy())))
          .put("key", policy.key().spelling())
          .put("shadow", policy.shadow())
          .put("limits", limits)
          .put("allowed", activity.allowed())
          .put("denied", activity.denied())
          .put("nearLimit", activity.nearLimit())
          .put("mostDenied", denied)
          .put("nearLimitKeys", near));
    }
    JsonObject udp = new JsonObject().put("overLimit", data.activity().udpOverLimit())
        .put("underLimit", data.activity().udpUnderLimit());
    return DashboardContext.ok(context, new JsonObject().put("policies", policies).put("udp", udp)
        .put("nearLimitPercent", Math.round(100 * LimitActivity.NEAR_LIMIT)));
  }

  /** GET /api/history */
  Future<Void> history(RoutingContext context) {
    return DashboardContext.ok(context, data.history().json());
  }
}
