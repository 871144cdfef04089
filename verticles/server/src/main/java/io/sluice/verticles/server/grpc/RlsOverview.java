package io.sluice.verticles.server.grpc;

import io.sluice.verticles.rls.RateLimit;
import io.sluice.verticles.rls.RlsConfig;
import io.sluice.verticles.rls.RlsStats;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code GET /api/rls} for the dashboard: every domain, configured or counted, with its
 * descriptors — the configured limits in file order, then paths only statistics know (values of a
 * {@code detailed_metric} descriptor, domains of an earlier config) — and their hit counts.
 */
final class RlsOverview {

  private RlsOverview() {
  }

  static JsonObject of(RlsConfig config, RlsStats stats) {
    Map<String, Map<String, RlsStats.Counts>> counted = new LinkedHashMap<>();
    for (RlsStats.Counts counts : stats.all()) {
      counted.computeIfAbsent(counts.domain(), d -> new LinkedHashMap<>()).put(counts.descriptor(), counts);
    }
    TreeSet<String> domains = new TreeSet<>(config.domains().keySet());
    domains.addAll(counted.keySet());
    JsonArray list = new JsonArray();
    for (String domain : domains) {
      Map<String, RlsStats.Counts> left = new LinkedHashMap<>(counted.getOrDefault(domain, Map.of()));
      JsonArray descriptors = new JsonArray();
      for (RateLimit limit : config.limits(domain)) {
        descriptors.add(descriptor(limit.statKey(), left.remove(limit.statKey())).put("limit", describe(limit))
            .put("shadow_mode", limit.shadowMode()));
      }
      left.forEach((path, counts) -> descriptors.add(descriptor(path, counts)));
      list.add(new JsonObject().put("domain", domain).put("configured", config.domains().containsKey(domain))
          .put("descriptors", descriptors));
    }
    return new JsonObject().put("sources", new JsonArray(config.sources())).put("domains", list);
  }

  private static JsonObject descriptor(String path, RlsStats.Counts counts) {
    return new JsonObject().put("descriptor", path)
        .put("total_hits", counts == null ? 0 : counts.totalHits())
        .put("over_limit", counts == null ? 0 : counts.overLimit())
        .put("near_limit", counts == null ? 0 : counts.nearLimit())
        .put("within_limit", counts == null ? 0 : counts.withinLimit())
        .put("shadow_mode_hits", counts == null ? 0 : counts.shadowMode());
  }

  private static String describe(RateLimit limit) {
    return limit.describe();
  }
}
