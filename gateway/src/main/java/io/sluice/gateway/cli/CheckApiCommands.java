package io.sluice.gateway.cli;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The commands on the server's HTTP port: a check ({@code POST /v1/check}), a reset
 * ({@code DELETE /v1/limits/{policy}/{key}}) and the list of policies and Envoy rate limit domains
 * ({@code GET /api/limits}, {@code GET /api/rls}), as docs/http-check-api.md and
 * docs/dashboard-api.md describe them.
 */
final class CheckApiCommands {

  private static final int OK = 200;
  private static final int TOO_MANY_REQUESTS = 429;

  private CheckApiCommands() {
  }

  /** POLICY KEY [COST]: allowed is exit status 0, denied 1. */
  static Future<Result> check(Servers servers, List<String> args) {
    long cost = args.size() > 2 ? CliCommand.number(args.get(2), "COST") : 1;
    JsonObject request = new JsonObject().put("policy", args.get(0)).put("key", args.get(1)).put("cost", cost);
    return servers.http().post("/v1/check", request).map(reply -> {
      JsonObject body = reply.expect(OK, TOO_MANY_REQUESTS).body();
      JsonObject json = body.copy().put("policy", args.get(0)).put("key", args.get(1));
      String figures = body.getLong("remaining") + " of " + body.getLong("limit") + " left, resets in "
          + body.getLong("reset") + " s";
      String shadow = body.containsKey("shadow") ? " (shadow policy: it would be " + body.getString("shadow") + ")" : "";
      return body.getBoolean("allowed", false)
          ? Result.ok("allowed: " + figures + shadow, json)
          : Result.refused("denied: " + figures + ", retry after " + body.getLong("retry_after") + " s", json);
    });
  }

  /** POLICY KEY: removed is exit status 0; a key without state 1. */
  static Future<Result> reset(Servers servers, List<String> args) {
    String path = "/v1/limits/" + HttpApi.segment(args.get(0)) + "/" + HttpApi.segment(args.get(1));
    return servers.http().delete(path).map(reply -> {
      JsonObject body = reply.expect(OK).body();
      return body.getBoolean("removed", false)
          ? Result.ok("OK: the state of " + args.get(1) + " under " + args.get(0) + " is removed", body.copy())
          : Result.refused("nothing to reset: " + args.get(0) + " holds no state for " + args.get(1), body.copy());
    });
  }

  static Future<Result> policies(Servers servers, List<String> args) {
    return servers.http().get("/api/limits").compose(limits -> servers.http().get("/api/rls").map(rls -> {
      JsonArray policies = limits.expect(OK).body().getJsonArray("policies", new JsonArray());
      JsonArray domains = rls.expect(OK).body().getJsonArray("domains", new JsonArray());
      StringBuilder text = new StringBuilder("check API policies:\n");
      if (policies.isEmpty()) {
        text.append("  none (a policies: section in the --config file adds them)\n");
      }
      for (int i = 0; i < policies.size(); i++) {
        text.append("  ").append(policy(policies.getJsonObject(i))).append('\n');
      }
      text.append("Envoy rate limit domains:\n");
      if (domains.isEmpty()) {
        text.append("  none (--rls-config adds them)\n");
      }
      for (int i = 0; i < domains.size(); i++) {
        text.append(domain(domains.getJsonObject(i)));
      }
      text.append("(").append(InstanceReplies.count(policies.size(), "policy", "policies"))
          .append(", ").append(InstanceReplies.count(domains.size(), "domain")).append(")");
      return Result.ok(text.toString(), new JsonObject().put("policies", policies).put("domains", domains));
    }));
  }

  /** {@code per-key  fixed_window, key param: default 5 per 60 s (allowed 9, denied 1)}. */
  private static String policy(JsonObject policy) {
    StringBuilder text = new StringBuilder(policy.getString("name")).append("  ").append(policy.getString("strategy"))
        .append(", key ").append(policy.getString("key")).append(':');
    JsonArray limits = policy.getJsonArray("limits", new JsonArray());
    for (int i = 0; i < limits.size(); i++) {
      JsonObject limit = limits.getJsonObject(i);
      text.append(i == 0 ? " " : ", ").append(limit.getString("name")).append(' ').append(limit.getValue("quota"))
          .append(" per ").append(limit.getValue("windowSeconds")).append(" s");
    }
    return text.append(policy.getBoolean("shadow", false) ? " (shadow)" : "").append(" (allowed ")
        .append(policy.getValue("allowed")).append(", denied ").append(policy.getValue("denied")).append(')').toString();
  }

  /** The domain's line, then one line per descriptor: {@code remote_address: 10 per second (12 hits, 2 over)}. */
  private static String domain(JsonObject domain) {
    StringBuilder text = new StringBuilder("  ").append(domain.getString("domain"))
        .append(domain.getBoolean("configured", true) ? "" : " (no longer configured; statistics only)").append('\n');
    JsonArray descriptors = domain.getJsonArray("descriptors", new JsonArray());
    for (int i = 0; i < descriptors.size(); i++) {
      JsonObject descriptor = descriptors.getJsonObject(i);
      text.append("    ").append(descriptor.getString("descriptor")).append(": ")
          .append(descriptor.getString("limit", "no limit"))
          .append(descriptor.getBoolean("shadow_mode", false) ? " (shadow)" : "")
          .append(" (").append(descriptor.getValue("total_hits")).append(" hits, ")
          .append(descriptor.getValue("over_limit")).append(" over)\n");
    }
    return text.toString();
  }
}
