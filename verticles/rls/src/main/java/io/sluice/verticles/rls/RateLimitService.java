package io.sluice.verticles.rls;

import com.google.protobuf.Duration;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.time.Clock;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Envoy's {@code ShouldRateLimit}, decided as envoyproxy/ratelimit decides it, with the counters
 * in Sluice's shards instead of Redis. One instance per front event loop (its router's loop);
 * the config and the statistics are shared.
 *
 * <p>Per descriptor, in request order: the limit is the caller's override, else the configured
 * one its entries reach ({@link RlsConfig#limitFor}); a limit whose {@code name} another applying
 * limit {@code replaces} is dropped; an unlimited one answers OK with the largest remaining
 * (4294967295) and no counter. Every other limit adds the descriptor's hits through its
 * {@link Algorithm} — by default to the counter of the current fixed window (now truncated to the
 * unit) — and compares the use after: above the capacity ({@code requests_per_unit}, or a
 * bucket's burst) is OVER_LIMIT with 0 remaining, else OK with the rest. A shadow-mode
 * descriptor is counted and reported in statistics, but its status says OK, so it never makes the
 * overall code OVER_LIMIT. The overall code is OVER_LIMIT when any status is.
 */
public final class RateLimitService {

  /** envoyproxy/ratelimit's default NEAR_LIMIT_RATIO. */
  public static final float NEAR_LIMIT_RATIO = 0.8f;
  /** Envoy's own bound on hits_addend; more is surely a mistake, and an unsigned 64-bit value could overflow. */
  public static final long MAX_HITS_ADDEND = 1_000_000_000L;
  /** What an unlimited descriptor reports as remaining: the largest uint32. */
  static final int UNLIMITED_REMAINING = (int) 0xFFFF_FFFFL;

  public static final String LIMIT_HEADER = "x-ratelimit-limit";
  public static final String REMAINING_HEADER = "x-ratelimit-remaining";
  public static final String RESET_HEADER = "x-ratelimit-reset";

  private final Supplier<RlsConfig> config;
  private final ShardRouter router;
  private final Clock clock;
  private final RlsStats stats;
  private final boolean responseHeaders;
  private final OverLimitCache overLimitCache;

  /**
   * @param config          the config in force, read once per request
   * @param responseHeaders add x-ratelimit-limit, -remaining and -reset of the descriptor with the
   *                        fewest remaining (envoyproxy/ratelimit's LIMIT_RESPONSE_HEADERS_ENABLED)
   */
  public RateLimitService(Supplier<RlsConfig> config, ShardRouter router, Clock clock, RlsStats stats,
                          boolean responseHeaders) {
    this(config, router, clock, stats, responseHeaders, OverLimitCache.off());
  }

  /**
   * @param overLimitCache the node's local over-limit cache (envoyproxy/ratelimit's
   *                       LOCAL_CACHE_SIZE_IN_BYTES), shared by the services of every loop
   */
  public RateLimitService(Supplier<RlsConfig> config, ShardRouter router, Clock clock, RlsStats stats,
                          boolean responseHeaders, OverLimitCache overLimitCache) {
    this.config = config;
    this.router = router;
    this.clock = clock;
    this.stats = stats;
    this.responseHeaders = responseHeaders;
    this.overLimitCache = overLimitCache;
  }

  /**
   * Decides one request. Completes on the router's loop; fails with
   * {@link InvalidRateLimitRequest} for a request it refuses, or with a shard's failure.
   */
  public CompletionStage<RateLimitResponse> shouldRateLimit(RateLimitRequest request) {
    RateLimit[] limits;
    long[] hits;
    try {
      hits = hitsOf(request);
      limits = limitsOf(request);
    } catch (InvalidRateLimitRequest invalid) {
      return CompletableFuture.failedFuture(invalid);
    }
    long nowNanos = clock.epochNanos();
    int n = limits.length;
    @SuppressWarnings("unchecked")
    CompletableFuture<Algorithm.Count>[] counts = new CompletableFuture[n];
    CompletableFuture<?> all = CompletableFuture.completedFuture(null);
    for (int i = 0; i < n; i++) {
      RateLimit limit = limits[i];
      if (limit == null || limit.unlimited()) {
        continue;
      }
      counts[i] = count(limit.algorithm(), request.getDomain(), request.getDescriptors(i), hits[i], nowNanos);
      all = all.thenCombine(counts[i], (a, b) -> null);
    }
    return all.thenApply(done -> answer(request.getDomain(), limits, hits, counts));
  }

  /**
   * A descriptor's count: from the over-limit cache when it knows the record is over, else from
   * the record's shard, whose over answer the cache then remembers for as long as it holds.
   */
  private CompletableFuture<Algorithm.Count> count(Algorithm algorithm, String domain, RateLimitDescriptor descriptor,
                                                   long hits, long nowNanos) {
    byte[] recordKey = algorithm.recordKey(domain, descriptor.getEntriesList(), nowNanos);
    if (overLimitCache.isOver(recordKey, nowNanos)) {
      return CompletableFuture.completedFuture(algorithm.overFromCache(hits, nowNanos));
    }
    return algorithm.count(router, recordKey, hits, nowNanos).toCompletableFuture().thenApply(count -> {
      if (count.overUntilNanos() > nowNanos) {
        overLimitCache.remember(recordKey, count.overUntilNanos());
      }
      return count;
    });
  }

  private RateLimitResponse answer(String domain, RateLimit[] limits, long[] hits,
                                   CompletableFuture<Algorithm.Count>[] counts) {
    RateLimitResponse.Builder response = RateLimitResponse.newBuilder().setOverallCode(Code.OK);
    DescriptorStatus fewest = null;
    for (int i = 0; i < limits.length; i++) {
      RateLimit limit = limits[i];
      DescriptorStatus status;
      if (limit == null) {
        status = DescriptorStatus.newBuilder().setCode(Code.OK).build();
      } else if (limit.unlimited()) {
        RlsStats.Counts counted = stats.of(domain, limit);
        counted.totalHits.add(hits[i]);
        counted.withinLimit.add(hits[i]);
        status = DescriptorStatus.newBuilder().setCode(Code.OK).setLimitRemaining(UNLIMITED_REMAINING).build();
      } else {
        status = counted(domain, limit, hits[i], counts[i].join());
        if (fewest == null || Integer.compareUnsigned(status.getLimitRemaining(), fewest.getLimitRemaining()) < 0) {
          fewest = status;
        }
      }
      if (status.getCode() == Code.OVER_LIMIT) {
        response.setOverallCode(Code.OVER_LIMIT);
      }
      response.addStatuses(status);
    }
    if (responseHeaders && fewest != null) {
      response.addResponseHeadersToAdd(header(LIMIT_HEADER, Integer.toUnsignedString(fewest.getCurrentLimit().getRequestsPerUnit())))
          .addResponseHeadersToAdd(header(REMAINING_HEADER, Integer.toUnsignedString(fewest.getLimitRemaining())))
          .addResponseHeadersToAdd(header(RESET_HEADER, Long.toString(fewest.getDurationUntilReset().getSeconds())));
    }
    stats.answered(response.getOverallCode() == Code.OVER_LIMIT);
    return response.build();
  }

  /** The status of a counted descriptor, and its statistics as envoyproxy/ratelimit keeps them. */
  private DescriptorStatus counted(String domain, RateLimit limit, long hits, Algorithm.Count count) {
    long after = count.after();
    long before = after - hits;
    long overThreshold = count.capacity();
    long nearThreshold = (long) Math.floor((double) ((float) overThreshold * NEAR_LIMIT_RATIO));
    RlsStats.Counts counted = stats.of(domain, limit);
    counted.totalHits.add(hits);
    DescriptorStatus.Builder status = DescriptorStatus.newBuilder()
        .setCurrentLimit(RateLimitResponse.RateLimit.newBuilder().setName(limit.name())
            .setRequestsPerUnit((int) limit.requestsPerUnit()).setUnit(limit.unit().toProto()))
        .setDurationUntilReset(Duration.newBuilder().setSeconds(count.secondsUntilReset()));
    if (after > overThreshold) {
      // Of the hits, those past the limit are over it; those between the near mark and the limit are near it.
      if (count.fromLocalCache()) {
        counted.overLimitWithLocalCache.add(hits);
      }
      if (before >= overThreshold) {
        counted.overLimit.add(hits);
      } else {
        counted.overLimit.add(after - overThreshold);
        counted.nearLimit.add(overThreshold - Math.max(nearThreshold, before));
      }
      if (limit.shadowMode()) {
        counted.shadowMode.add(hits);
      }
      status.setCode(limit.shadowMode() ? Code.OK : Code.OVER_LIMIT).setLimitRemaining(0);
    } else {
      if (after > nearThreshold) {
        counted.nearLimit.add(before >= nearThreshold ? hits : after - nearThreshold);
      }
      counted.withinLimit.add(hits);
      status.setCode(Code.OK).setLimitRemaining((int) (overThreshold - after));
    }
    return status.build();
  }

  private long[] hitsOf(RateLimitRequest request) {
    if (request.getDomain().isEmpty()) {
      throw new InvalidRateLimitRequest("rate limit domain must not be empty");
    }
    if (request.getDescriptorsCount() == 0) {
      throw new InvalidRateLimitRequest("rate limit descriptor list must not be empty");
    }
    long requestHits = request.getHitsAddend() == 0 ? 1 : Integer.toUnsignedLong(request.getHitsAddend());
    long[] hits = new long[request.getDescriptorsCount()];
    for (int i = 0; i < hits.length; i++) {
      RateLimitDescriptor descriptor = request.getDescriptors(i);
      hits[i] = descriptor.hasHitsAddend() ? descriptor.getHitsAddend().getValue() : requestHits;
      if (hits[i] < 0 || hits[i] > MAX_HITS_ADDEND) {
        throw new InvalidRateLimitRequest("descriptor " + i + ": hits_addend " + Long.toUnsignedString(hits[i])
            + " is above " + MAX_HITS_ADDEND);
      }
    }
    return hits;
  }

  private RateLimit[] limitsOf(RateLimitRequest request) {
    RlsConfig snapshot = config.get();
    RateLimit[] limits = new RateLimit[request.getDescriptorsCount()];
    for (int i = 0; i < limits.length; i++) {
      RateLimitDescriptor descriptor = request.getDescriptors(i);
      RateLimit configured = snapshot.limitFor(request.getDomain(), descriptor.getEntriesList());
      limits[i] = descriptor.hasLimit() ? override(descriptor, i, configured) : configured;
    }
    Set<String> replaced = new HashSet<>();
    for (RateLimit limit : limits) {
      if (limit != null && !limit.unlimited()) {
        replaced.addAll(limit.replaces());
      }
    }
    for (int i = 0; i < limits.length; i++) {
      if (limits[i] != null && !limits[i].name().isEmpty() && replaced.contains(limits[i].name())) {
        limits[i] = null;
      }
    }
    return limits;
  }

  /**
   * The caller's own limit, counted under the configured descriptor's statistics when there is
   * one, and in none otherwise: a statistics path never comes from what a client sends.
   */
  private static RateLimit override(RateLimitDescriptor descriptor, int index, RateLimit configured) {
    RateLimitDescriptor.RateLimitOverride override = descriptor.getLimit();
    WindowUnit unit = WindowUnit.of(override.getUnit()).orElseThrow(() -> new InvalidRateLimitRequest(
        "descriptor " + index + ": the limit override's unit must be one of SECOND … WEEK, not " + override.getUnitValue()));
    return RateLimit.override(Integer.toUnsignedLong(override.getRequestsPerUnit()), unit, configured);
  }

  private static HeaderValue header(String key, String value) {
    return HeaderValue.newBuilder().setKey(key).setValue(value).build();
  }
}
