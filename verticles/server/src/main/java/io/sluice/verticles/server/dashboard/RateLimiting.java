package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.rls.RlsStats;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.vertx.core.json.JsonObject;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The overview's {@code "rateLimiting"}: what the three ways of asking for a verdict answered since
 * the start — the HTTP check API's checks, Envoy's rate limit service's calls (gRPC and POST /json)
 * and the UDP endpoint's over_limit verdicts — each as allowed and denied running totals, from which
 * the page draws per-second figures; and who is denied most: the policy (a check policy, or an
 * Envoy domain's descriptor, counted in hits) and the check key.
 */
final class RateLimiting {

  /** Allowed and denied running totals of one way of asking. */
  record Verdicts(long allowed, long denied) {

    Verdicts plus(Verdicts other) {
      return new Verdicts(allowed + other.allowed, denied + other.denied);
    }

    long total() {
      return allowed + denied;
    }

    JsonObject json() {
      return new JsonObject().put("allowed", allowed).put("denied", denied);
    }

    static Verdicts of(JsonObject json) {
      return new Verdicts(json.getLong("allowed"), json.getLong("denied"));
    }
  }

  /** The running totals of the three ways, read at one moment. */
  record Totals(Verdicts checks, Verdicts envoy, Verdicts udp) {

    static Totals of(DashboardData data) {
      long allowed = 0;
      long denied = 0;
      for (String name : data.policyNames()) {
        LimitActivity.PolicyActivity activity = data.activity().policy(name);
        allowed += activity.allowed();
        denied += activity.denied();
      }
      RlsStats envoy = data.envoy();
      return new Totals(new Verdicts(allowed, denied), new Verdicts(envoy.okCalls(), envoy.overLimitCalls()),
          new Verdicts(data.activity().udpUnderLimit(), data.activity().udpOverLimit()));
    }

    /** Read back from the overview's {@code "rateLimiting"}. */
    static Totals of(JsonObject rateLimiting) {
      return new Totals(Verdicts.of(rateLimiting.getJsonObject("checks")),
          Verdicts.of(rateLimiting.getJsonObject("envoy")), Verdicts.of(rateLimiting.getJsonObject("udp")));
    }

    Verdicts all() {
      return checks.plus(envoy).plus(udp);
    }
  }

  private record Denier(String kind, String name, long denied) {
  }

  private RateLimiting() {
  }

  /**
   * {@code {"checks":{"allowed":…,"denied":…},"envoy":{…},"udp":{…},"topDeniedPolicy":{"kind":
   * "check"|"envoy","name":…,"denied":…}|null,"topDeniedKey":{"policy":…,"key":…,"denied":…}|null,
   * "envoyDomains":{"domain":{"hits":…,"overLimit":…}}}
   */
  static JsonObject json(DashboardData data, Totals totals) {
    return new JsonObject()
        .put("checks", totals.checks().json())
        .put("envoy", totals.envoy().json())
        .put("udp", totals.udp().json())
        .put("topDeniedPolicy", topPolicy(data).map(top -> new JsonObject().put("kind", top.kind())
            .put("name", top.name()).put("denied", top.denied())).orElse(null))
        .put("topDeniedKey", topKey(data))
        .put("envoyDomains", envoyDomains(data.envoy()));
  }

  /**
   * {@code {"domain":{"hits":…,"overLimit":…}}}: Envoy's hits per domain, summed over its
   * descriptors (the Envoy RLS view's per-domain rates). Domains come from the config.
   */
  static JsonObject envoyDomains(RlsStats envoy) {
    Map<String, long[]> byDomain = new TreeMap<>();
    for (RlsStats.Counts counts : envoy.all()) {
      long[] sums = byDomain.computeIfAbsent(counts.domain(), d -> new long[2]);
      sums[0] += counts.totalHits();
      sums[1] += counts.overLimit();
    }
    JsonObject domains = new JsonObject();
    byDomain.forEach((domain, sums) -> domains.put(domain, new JsonObject().put("hits", sums[0]).put("overLimit", sums[1])));
    return domains;
  }

  private static Optional<Denier> topPolicy(DashboardData data) {
    Optional<Denier> check = data.policyNames().stream()
        .map(name -> new Denier("check", name, data.activity().policy(name).denied()))
        .max(Comparator.comparingLong(Denier::denied));
    Optional<Denier> envoy = data.envoy().all().stream()
        .map(counts -> new Denier("envoy", counts.domain() + "/" + counts.descriptor(), counts.overLimit()))
        .max(Comparator.comparingLong(Denier::denied));
    return Stream.of(check, envoy).flatMap(Optional::stream)
        .filter(denier -> denier.denied() > 0)
        .max(Comparator.comparingLong(Denier::denied));
  }

  private static JsonObject topKey(DashboardData data) {
    JsonObject top = null;
    long most = 0;
    for (String name : data.policyNames()) {
      for (LimitActivity.DeniedKey key : data.activity().policy(name).mostDenied(1)) {
        if (key.denied() > most) {
          most = key.denied();
          top = new JsonObject().put("policy", name).put("key", key.key()).put("denied", key.denied());
        }
      }
    }
    return top;
  }
}
