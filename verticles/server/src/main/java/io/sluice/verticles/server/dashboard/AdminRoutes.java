package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.reload.ReloadReport;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.strategies.policy.PolicyParameters;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * What an operator may do besides looking, behind the token when one is set:
 * {@code DELETE /api/connections/{id}} closes a client connection, and {@code GET /api/admin/config}
 * shows the effective configuration with secrets redacted (like Envoy's {@code /config_dump}).
 */
final class AdminRoutes {

  private final DashboardData data;

  AdminRoutes(DashboardData data) {
    this.data = data;
  }

  /** DELETE /api/connections/{id}: 202, the connection closes on its own event loop; 404 if none is open. */
  Future<Void> close(RoutingContext context) {
    String id = context.pathParam("id");
    if (id.startsWith("udp:")) {
      throw ApiError.badRequest("a UDP peer has no connection to close");
    }
    if (!data.closers().close(id)) {
      throw new ApiError(404, "no open connection '" + id + "'", null);
    }
    context.response().setStatusCode(202);
    return DashboardContext.ok(context, new JsonObject().put("closing", id));
  }

  /**
   * GET /api/admin/config: {@code {"options":[{"option","yaml","value","origin","secret"}],
   * "policies":[{"name","key","shadow","legacyHeaders","parameters"}], "lastReload":…}}, the
   * policies as they are in service now. Secret values (the token) are never sent, only whether
   * they are set.
   */
  Future<Void> config(RoutingContext context) {
    JsonArray options = new JsonArray();
    for (OperatorSettings.ConfigEntry entry : data.operator().configuration()) {
      options.add(new JsonObject().put("option", entry.option()).put("yaml", entry.yaml()).put("value", entry.value())
          .put("origin", entry.origin()).put("secret", entry.secret()));
    }
    JsonArray policies = new JsonArray();
    for (Policy policy : data.policies().all()) {
      policies.add(new JsonObject().put("name", policy.name()).put("key", policy.key().spelling())
          .put("shadow", policy.shadow()).put("legacyHeaders", policy.legacyHeaders())
          .put("parameters", new JsonObject(PolicyParameters.of(policy.strategy()))));
    }
    context.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
    return DashboardContext.ok(context, new JsonObject().put("options", options).put("policies", policies)
        .put("internalMetrics", data.operator().internalMetrics())
        .put("lastReload", data.lastReload().get().map(AdminRoutes::reload).orElse(null)));
  }

  /** {@code {"atMillis","outcome","parts":[{"part","result","detail"}]}}: what the last SIGHUP did. */
  private static JsonObject reload(ReloadReport report) {
    JsonArray parts = new JsonArray();
    for (ReloadReport.PartResult part : report.parts()) {
      parts.add(new JsonObject().put("part", part.part()).put("result", part.reloaded() ? "ok" : "refused")
          .put("detail", part.detail()));
    }
    return new JsonObject().put("atMillis", report.atMillis()).put("outcome", report.outcome().spelling())
        .put("parts", parts);
  }
}
