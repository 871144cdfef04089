package io.sluice.verticles.server.grpc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.rls.RlsStats;

import java.util.function.ToDoubleFunction;

/**
 * envoyproxy/ratelimit's statistics as Prometheus series, read from {@link RlsStats}:
 * {@code sluice_rls_total_hits_total}, {@code sluice_rls_over_limit_total},
 * {@code sluice_rls_near_limit_total}, {@code sluice_rls_within_limit_total} and
 * {@code sluice_rls_shadow_mode_total}, labelled {@code domain} and {@code descriptor} (the
 * configured path, such as {@code message_type_marketing.to_number}; one per request value only
 * under {@code detailed_metric}, up to {@link RlsStats#MAX_DETAILED_PATHS}, then {@code other}).
 */
final class RlsMetrics {

  private RlsMetrics() {
  }

  /** Registers the series of one descriptor path, the first time it is counted. */
  static void register(MeterRegistry registry, RlsStats.Counts counts) {
    series(registry, counts, "total.hits", "Hits on the descriptor's limit", RlsStats.Counts::totalHits);
    series(registry, counts, "over.limit", "Hits over the limit", RlsStats.Counts::overLimit);
    series(registry, counts, "near.limit", "Hits past the near-limit ratio (--rls-near-limit-ratio) but within the limit",
        RlsStats.Counts::nearLimit);
    series(registry, counts, "within.limit", "Hits within the limit", RlsStats.Counts::withinLimit);
    series(registry, counts, "shadow.mode", "Hits over a shadow-mode limit, answered OK", RlsStats.Counts::shadowMode);
  }

  /** Registers {@code sluice_rls_global_shadow_mode_total}, the calls the global shadow mode answered OK. */
  static void registerGlobal(MeterRegistry registry, RlsStats stats) {
    FunctionCounter.builder("sluice.rls.global.shadow.mode", stats, RlsStats::globalShadowModeCalls)
        .description("Envoy rate limit service: calls answered OK instead of OVER_LIMIT by --rls-shadow-mode")
        .register(registry);
  }

  private static void series(MeterRegistry registry, RlsStats.Counts counts, String stat, String description,
                             ToDoubleFunction<RlsStats.Counts> value) {
    FunctionCounter.builder("sluice.rls." + stat, counts, value)
        .description("Envoy rate limit service: " + description + ", by domain and descriptor")
        .tag("domain", counts.domain())
        .tag("descriptor", counts.descriptor())
        .register(registry);
  }
}
