package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.metrics.LimitActivity;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dashboard's charts over the last hour, kept by the server at 10-second steps so that a reload
 * (or a second browser) starts with the whole hour: at most {@value #CAPACITY} samples of running
 * totals, from which {@link #json()} derives the rates of each step. Written by the
 * {@link DashboardVerticle}, read by any HTTP front: every method is synchronized.
 */
final class History {

  static final int STEP_SECONDS = 10;
  static final int CAPACITY = 3600 / STEP_SECONDS;

  /**
   * Running totals and levels at one instant; per-policy totals are {allowed, denied}. Requests are
   * every kind: Throttr commands (TCP and WebSocket), checks, Envoy calls and UDP verdicts.
   */
  record Sample(long atMillis, long requests, long bytesRead, long bytesWritten, long connections, long keys,
                Map<String, long[]> policies, RateLimiting.Totals verdicts, Map<String, long[]> envoyDomains) {
  }

  private final ArrayDeque<Sample> samples = new ArrayDeque<>();

  /** Reads the totals of an overview and of the limits' activity as one sample. */
  static Sample of(long atMillis, JsonObject overview, DashboardData data) {
    Map<String, long[]> byPolicy = new TreeMap<>();
    for (String policy : data.policyNames()) {
      LimitActivity.PolicyActivity counts = data.activity().policy(policy);
      byPolicy.put(policy, new long[] {counts.allowed(), counts.denied()});
    }
    JsonObject bytes = overview.getJsonObject("bytes");
    JsonObject rateLimiting = overview.getJsonObject("rateLimiting");
    Map<String, long[]> byDomain = new TreeMap<>();
    rateLimiting.getJsonObject("envoyDomains").forEach(domain -> {
      JsonObject sums = (JsonObject) domain.getValue();
      byDomain.put(domain.getKey(), new long[] {sums.getLong("hits"), sums.getLong("overLimit")});
    });
    return new Sample(atMillis, overview.getJsonObject("requests").getLong("all"), bytes.getLong("read"),
        bytes.getLong("written"), overview.getLong("connections"), overview.getJsonObject("keys").getLong("total"),
        byPolicy, RateLimiting.Totals.of(rateLimiting), byDomain);
  }

  synchronized void add(Sample sample) {
    samples.addLast(sample);
    while (samples.size() > CAPACITY) {
      samples.removeFirst();
    }
  }

  /**
   * {@code {"stepSeconds":10,"samples":[{"t":ms,"connections":…,"keys":…,"requestsPerSecond":…,
   * "bytesInPerSecond":…,"bytesOutPerSecond":…,"udpOverLimitPerSecond":…,"udpUnderLimitPerSecond":…,
   * "checksPerSecond":…,"envoyCallsPerSecond":…,"udpVerdictsPerSecond":…,"allowedPerSecond":…,
   * "deniedPerSecond":…,"policies":{"name":{"allowedPerSecond":…,"deniedPerSecond":…}},
   * "envoyDomains":{"domain":{"hitsPerSecond":…,"overLimitPerSecond":…}}}]}}, oldest first. Rates
   * cover the step before each sample, so the first sample has none.
   */
  synchronized JsonObject json() {
    JsonArray items = new JsonArray();
    Sample previous = null;
    for (Sample sample : samples) {
      JsonObject item = new JsonObject().put("t", sample.atMillis()).put("connections", sample.connections())
          .put("keys", sample.keys());
      if (previous != null && sample.atMillis() > previous.atMillis()) {
        double seconds = (sample.atMillis() - previous.atMillis()) / 1000.0;
        RateLimiting.Totals verdicts = sample.verdicts();
        RateLimiting.Totals earlier = previous.verdicts();
        item.put("requestsPerSecond", rate(sample.requests(), previous.requests(), seconds))
            .put("bytesInPerSecond", rate(sample.bytesRead(), previous.bytesRead(), seconds))
            .put("bytesOutPerSecond", rate(sample.bytesWritten(), previous.bytesWritten(), seconds))
            .put("udpOverLimitPerSecond", rate(verdicts.udp().denied(), earlier.udp().denied(), seconds))
            .put("udpUnderLimitPerSecond", rate(verdicts.udp().allowed(), earlier.udp().allowed(), seconds))
            .put("checksPerSecond", rate(verdicts.checks().total(), earlier.checks().total(), seconds))
            .put("envoyCallsPerSecond", rate(verdicts.envoy().total(), earlier.envoy().total(), seconds))
            .put("udpVerdictsPerSecond", rate(verdicts.udp().total(), earlier.udp().total(), seconds))
            .put("allowedPerSecond", rate(verdicts.all().allowed(), earlier.all().allowed(), seconds))
            .put("deniedPerSecond", rate(verdicts.all().denied(), earlier.all().denied(), seconds));
        item.put("policies", pairRates(sample.policies(), previous.policies(), seconds, "allowedPerSecond",
            "deniedPerSecond"));
        item.put("envoyDomains", pairRates(sample.envoyDomains(), previous.envoyDomains(), seconds, "hitsPerSecond",
            "overLimitPerSecond"));
      }
      items.add(item);
      previous = sample;
    }
    return new JsonObject().put("stepSeconds", STEP_SECONDS).put("samples", items);
  }

  /** The rates of named pairs of totals (a policy's allowed and denied, a domain's hits and over limit). */
  private static JsonObject pairRates(Map<String, long[]> now, Map<String, long[]> earlier, double seconds,
                                      String first, String second) {
    JsonObject rates = new JsonObject();
    for (Map.Entry<String, long[]> pair : now.entrySet()) {
      long[] before = earlier.getOrDefault(pair.getKey(), new long[2]);
      rates.put(pair.getKey(), new JsonObject().put(first, rate(pair.getValue()[0], before[0], seconds))
          .put(second, rate(pair.getValue()[1], before[1], seconds)));
    }
    return rates;
  }

  private static double rate(long total, long before, double seconds) {
    return Math.max(0, total - before) / seconds;
  }
}
