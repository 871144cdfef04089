package io.sluice.verticles.server.grpc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.rls.ConfigLoads;
import io.sluice.verticles.rls.DomainsNotFound;
import io.sluice.verticles.rls.OverLimitCache;
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

  private static final String CONFIG_LOADS =
      "Envoy rate limit service: configs put in force (startup, file reloads, xDS versions) and refused";

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
    series(registry, counts, "over.limit.with.local.cache",
        "Hits over the limit answered from the local over-limit cache (counted in over_limit too)",
        RlsStats.Counts::overLimitWithLocalCache);
  }

  /**
   * The local over-limit cache's own figures, as envoyproxy/ratelimit's localcache gauges:
   * {@code sluice_rls_local_cache_hits_total}, {@code _misses_total}, {@code _evictions_total} and
   * {@code sluice_rls_local_cache_entries}; none when the cache is off.
   */
  static void register(MeterRegistry registry, OverLimitCache cache) {
    if (!cache.enabled()) {
      return;
    }
    FunctionCounter.builder("sluice.rls.local.cache.hits", cache, OverLimitCache::hits)
        .description("Envoy rate limit service: lookups the local over-limit cache answered OVER_LIMIT")
        .register(registry);
    FunctionCounter.builder("sluice.rls.local.cache.misses", cache, OverLimitCache::misses)
        .description("Envoy rate limit service: lookups the local over-limit cache did not know, asked of the shard")
        .register(registry);
    FunctionCounter.builder("sluice.rls.local.cache.evictions", cache, OverLimitCache::evictions)
        .description("Envoy rate limit service: entries the local over-limit cache forgot to stay within its bytes")
        .register(registry);
    Gauge.builder("sluice.rls.local.cache.entries", cache, OverLimitCache::entries)
        .description("Envoy rate limit service: records the local over-limit cache knows to be over")
        .register(registry);
  }

  /** Registers {@code sluice_rls_global_shadow_mode_total}, the calls the global shadow mode answered OK. */
  static void registerGlobal(MeterRegistry registry, RlsStats stats) {
    FunctionCounter.builder("sluice.rls.global.shadow.mode", stats, RlsStats::globalShadowModeCalls)
        .description("Envoy rate limit service: calls answered OK instead of OVER_LIMIT by --rls-shadow-mode")
        .register(registry);
  }

  /**
   * {@code sluice_rls_domain_not_found_total{domain}}: descriptors asked of a domain the config
   * lacks (envoyproxy/ratelimit's {@code <domain>.domain_not_found}), registered the first time.
   */
  static void register(MeterRegistry registry, DomainsNotFound.Count count) {
    FunctionCounter.builder("sluice.rls.domain.not.found", count, DomainsNotFound.Count::descriptors)
        .description("Envoy rate limit service: descriptors asked of a domain the config lacks, by domain (past "
            + DomainsNotFound.MAX_DOMAINS + " domains, other)")
        .tag("domain", count.domain())
        .register(registry);
  }

  /**
   * {@code sluice_rls_config_loads_total{result="success"|"error"}}: configs put in force and
   * refused (envoyproxy/ratelimit's {@code config_load_success} and {@code config_load_error}).
   */
  static void register(MeterRegistry registry, ConfigLoads loads) {
    FunctionCounter.builder("sluice.rls.config.loads", loads, ConfigLoads::successes)
        .description(CONFIG_LOADS)
        .tag("result", "success")
        .register(registry);
    FunctionCounter.builder("sluice.rls.config.loads", loads, ConfigLoads::errors)
        .description(CONFIG_LOADS)
        .tag("result", "error")
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
