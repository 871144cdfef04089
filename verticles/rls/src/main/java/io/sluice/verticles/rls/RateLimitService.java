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
import java.util.stream.LongStream;

/**
 * Envoy's {@code ShouldRateLimit}, decided as envoyproxy/ratelimit decides it, with the counters
 * in Sluice's shards instead of Redis. One instance per front event loop (its router's loop);
 * the config and the statistics are shared.
 *
 * <p>Per descriptor, in request order: the limit is the caller's override (on a domain the config
 * knows), else the configured one its entries reach ({@link RlsConfig#limitFor}); a limit whose
 * {@code name} another applying limit {@code replaces} is dropped; an unlimited one answers OK with
 * the largest remaining (4294967295), no counter and no statistics. Every other limit adds the
 * descriptor's hits through its {@link Algorithm} — by default to the counter of the current fixed
 * window (now truncated to the unit) — and compares the use after: above the capacity
 * ({@code requests_per_unit}, or a bucket's burst) is OVER_LIMIT with 0 remaining, else OK with the
 * rest. A shadow-mode
 * descriptor is counted and reported in statistics, but its status says OK, so it never makes the
 * overall code OVER_LIMIT. The overall code is composed in {@link #answer}.
 */
public final class RateLimitService {

  /** Envoy's own bound on hits_addend; more is surely a mistake, and an unsigned 64-bit value could overflow. */
  public static final long MAX_HITS_ADDEND = 1_000_000_000L;
  /** What an unlimited descriptor reports as remaining: the largest uint32. */
  static final int UNLIMITED_REMAINING = (int) 0xFFFF_FFFFL;
  /** The durations of 0 to 3600 seconds, for {@link #untilReset}. */
  private static final Duration[] WHOLE_SECONDS = LongStream.rangeClosed(0, 3600)
      .mapToObj(seconds -> Duration.newBuilder().setSeconds(seconds).build()).toArray(Duration[]::new);


  private final Supplier<RlsConfig> config;
  private final ShardRouter router;
  private final Clock clock;
  private final RlsStats stats;
  private final RlsBehaviour behaviour;
  private final OverLimitCache overLimitCache;

  /**
   * @param config    the config in force, read once per request
   * @param behaviour the response headers, the near-limit ratio and the global shadow mode
   */
  public RateLimitService(Supplier<RlsConfig> config, ShardRouter router, Clock clock, RlsStats stats,
                          RlsBehaviour behaviour) {
    this(config, router, clock, stats, behaviour, OverLimitCache.off());
  }

  /**
   * @param overLimitCache the node's local over-limit cache (envoyproxy/ratelimit's
   *                       LOCAL_CACHE_SIZE_IN_BYTES), shared by the services of every loop
   */
  public RateLimitService(Supplier<RlsConfig> config, ShardRouter router, Clock clock, RlsStats stats,
                          RlsBehaviour behaviour, OverLimitCache overLimitCache) {
    this.config = config;
    this.router = router;
    this.clock = clock;
    this.stats = stats;
    this.behaviour = behaviour;
    this.overLimitCache = overLimitCache;
  }

  /** Told once, on the router's loop, how a request was decided. */
  public interface Answer {

    void answered(RateLimitResponse response);

    /** {@link InvalidRateLimitRequest} for a request the service refuses, or a shard's failure. */
    void failed(Throwable failure);
  }

  /** Decides one request, as {@link #shouldRateLimit(RateLimitRequest, Answer)} does, for a caller that wants a future. */
  public CompletionStage<RateLimitResponse> shouldRateLimit(RateLimitRequest request) {
    CompletableFuture<RateLimitResponse> decided = new CompletableFuture<>();
    shouldRateLimit(request, new Answer() {
      @Override
      public void answered(RateLimitResponse response) {
        decided.complete(response);
      }

      @Override
      public void failed(Throwable failure) {
        decided.completeExceptionally(failure);
      }
    });
    return decided;
  }

  /**
   * Decides one request and tells {@code answer}, on the router's loop: at once when every record
   * it counts lives there. The descriptors go to their shards as one {@link CountingRound}: a
   * batch per shard, not a message (nor a future) per descriptor.
   */
  public void shouldRateLimit(RateLimitRequest request, Answer answer) {
    RateLimit[] limits;
    long[] hits;
    try {
      hits = hitsOf(request);
      limits = limitsOf(request);
    } catch (InvalidRateLimitRequest invalid) {
      answer.failed(invalid);
      return;
    }
    long nowNanos = clock.epochNanos();
    if (!behaviour.stopIncrementOverLimit()) {
      CountingRound.count(router, overLimitCache, request, limits, hits, nowNanos, new Answering(request, limits, hits, answer));
      return;
    }
    // STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT, as upstream: look at the counts first (0 hits); when
    // a descriptor would go over, only the descriptors that would go over are counted. Like
    // upstream's, the look and the addition are two steps, not one.
    CountingRound.count(router, overLimitCache, request, limits, new long[hits.length], nowNanos, new CountingRound.Counted() {
      @Override
      public void counted(Algorithm.Count[] current) {
        long[] adding = new long[hits.length];
        boolean anyOver = false;
        for (int i = 0; i < hits.length; i++) {
          anyOver |= wouldGoOver(current[i], hits[i]);
        }
        for (int i = 0; i < hits.length; i++) {
          adding[i] = !anyOver || wouldGoOver(current[i], hits[i]) ? hits[i] : 0;
        }
        CountingRound.count(router, overLimitCache, request, limits, adding, nowNanos,
            new Answering(request, limits, hits, answer));
      }

      @Override
      public void failed(Throwable failure) {
        answer.failed(failure);
      }
    });
  }

  /** The counts of a request's round, made its response. */
  private final class Answering implements CountingRound.Counted {
    private final RateLimitRequest request;
    private final RateLimit[] limits;
    private final long[] hits;
    private final Answer answer;

    Answering(RateLimitRequest request, RateLimit[] limits, long[] hits, Answer answer) {
      this.request = request;
      this.limits = limits;
      this.hits = hits;
      this.answer = answer;
    }

    @Override
    public void counted(Algorithm.Count[] counts) {
      answer.answered(answer(request, limits, hits, counts));
    }

    @Override
    public void failed(Throwable failure) {
      answer.failed(failure);
    }
  }

  private static boolean wouldGoOver(Algorithm.Count current, long hits) {
    return current != null && current.after() + hits > current.capacity();
  }

  /**
   * The answer, as envoyproxy/ratelimit composes it: OVER_LIMIT when a limit not in quota mode is
   * over, or when every quota-mode limit of the request is; the headers of the last limit over
   * (not in quota mode), else of the one with the fewest remaining; and with the global shadow
   * mode, OK instead of OVER_LIMIT (the statuses still say which were over). With the global quota
   * mode every limit is in quota mode; with dynamic metadata on, the answer carries
   * {@link DynamicMetadata} of the limits that passed.
   */
  private RateLimitResponse answer(RateLimitRequest request, RateLimit[] limits, long[] hits, Algorithm.Count[] counts) {
    String domain = request.getDomain();
    RateLimitResponse.Builder response = RateLimitResponse.newBuilder();
    RateLimit[] passed = behaviour.dynamicMetadata() ? new RateLimit[limits.length] : null;
    DescriptorStatus closest = null;
    long fewestRemaining = 0xFFFF_FFFFL;
    int overLimit = 0;
    int quotaLimits = 0;
    int quotaOverLimit = 0;
    for (int i = 0; i < limits.length; i++) {
      RateLimit limit = limits[i];
      DescriptorStatus status;
      if (limit == null) {
        status = DescriptorStatus.newBuilder().setCode(Code.OK).build();
      } else if (limit.unlimited()) {
        status = DescriptorStatus.newBuilder().setCode(Code.OK).setLimitRemaining(UNLIMITED_REMAINING).build();
      } else {
        status = counted(domain, limit, hits[i], counts[i]);
        long remaining = Integer.toUnsignedLong(status.getLimitRemaining());
        if (remaining < fewestRemaining) {
          closest = status;
          fewestRemaining = remaining;
        }
        boolean quotaMode = behaviour.globalQuotaMode() || limit.quotaMode();
        quotaLimits += quotaMode ? 1 : 0;
        if (status.getCode() == Code.OVER_LIMIT) {
          if (quotaMode) {
            quotaOverLimit++;
          } else {
            overLimit++;
            closest = status;
            fewestRemaining = 0;
          }
        } else if (passed != null) {
          passed[i] = limit;
        }
      }
      response.addStatuses(status);
    }
    boolean over = overLimit > 0 || (quotaLimits > 0 && quotaOverLimit == quotaLimits);
    if (over && behaviour.globalShadowMode()) {
      stats.globalShadowMode();
      over = false;
    }
    response.setOverallCode(over ? Code.OVER_LIMIT : Code.OK);
    if (behaviour.responseHeaders() && closest != null) {
      response.addResponseHeadersToAdd(header(behaviour.limitHeader(), Integer.toUnsignedString(closest.getCurrentLimit().getRequestsPerUnit())))
          .addResponseHeadersToAdd(header(behaviour.remainingHeader(), Integer.toUnsignedString(closest.getLimitRemaining())))
          .addResponseHeadersToAdd(header(behaviour.resetHeader(), Long.toString(closest.getDurationUntilReset().getSeconds())));
    }
    if (passed != null) {
      response.setDynamicMetadata(DynamicMetadata.of(request, passed));
    }
    stats.answered(over);
    return response.build();
  }

  /** The status of a counted descriptor, and its statistics as envoyproxy/ratelimit keeps them. */
  private DescriptorStatus counted(String domain, RateLimit limit, long hits, Algorithm.Count count) {
    long after = count.after();
    long before = after - hits;
    long overThreshold = count.capacity();
    long nearThreshold = (long) Math.floor((double) ((float) overThreshold * behaviour.nearLimitRatio()));
    RlsStats.Counts counted = stats.of(domain, limit);
    counted.totalHits.add(hits);
    DescriptorStatus.Builder status = DescriptorStatus.newBuilder()
        .setCurrentLimit(RateLimitResponse.RateLimit.newBuilder().setName(limit.name())
            .setRequestsPerUnit((int) limit.requestsPerUnit()).setUnit(limit.unit().toProto()))
        .setDurationUntilReset(untilReset(count.secondsUntilReset()));
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
        // As the over-limit count: only the hits past the limit.
        counted.shadowMode.add(before >= overThreshold ? hits : after - overThreshold);
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
    if (!snapshot.hasDomain(request.getDomain())) {
      stats.domainsNotFound().count(request.getDomain(), limits.length);
    }
    for (int i = 0; i < limits.length; i++) {
      RateLimitDescriptor descriptor = request.getDescriptors(i);
      if (!descriptor.hasLimit()) {
        limits[i] = snapshot.limitFor(request.getDomain(), descriptor.getEntriesList());
      } else if (snapshot.hasDomain(request.getDomain())) {
        limits[i] = override(descriptor, i);
      }
    }
    Set<String> replaced = null;
    for (RateLimit limit : limits) {
      if (limit != null && !limit.replaces().isEmpty()) {
        replaced = replaced == null ? new HashSet<>() : replaced;
        replaced.addAll(limit.replaces());
      }
    }
    for (int i = 0; replaced != null && i < limits.length; i++) {
      // An unlimited limit stays unlimited even when replaced, as upstream answers it.
      if (limits[i] != null && !limits[i].unlimited() && !limits[i].name().isEmpty() && replaced.contains(limits[i].name())) {
        limits[i] = null;
      }
    }
    return limits;
  }

  /**
   * The caller's own limit on a known domain (upstream applies none on an unknown one), counted
   * under the request's path {@code key_value.key_value}, or {@code key} for an empty value, as
   * upstream counts it; that path is request-made, so capped in number.
   */
  private static RateLimit override(RateLimitDescriptor descriptor, int index) {
    RateLimitDescriptor.RateLimitOverride override = descriptor.getLimit();
    WindowUnit unit = WindowUnit.of(override.getUnit()).orElseThrow(() -> new InvalidRateLimitRequest(
        "descriptor " + index + ": the limit override's unit must be one of SECOND … WEEK, not " + override.getUnitValue()));
    StringBuilder path = new StringBuilder();
    for (RateLimitDescriptor.Entry entry : descriptor.getEntriesList()) {
      path.append(path.isEmpty() ? "" : ".").append(entry.getKey());
      if (!entry.getValue().isEmpty()) {
        path.append('_').append(entry.getValue());
      }
    }
    return RateLimit.override(Integer.toUnsignedLong(override.getRequestsPerUnit()), unit, path.toString());
  }

  /** A status's duration_until_reset: made once for up to an hour (a window's reset mostly is), else anew. */
  private static Duration untilReset(long seconds) {
    return seconds >= 0 && seconds < WHOLE_SECONDS.length ? WHOLE_SECONDS[(int) seconds]
        : Duration.newBuilder().setSeconds(seconds).build();
  }

  private static HeaderValue header(String key, String value) {
    return HeaderValue.newBuilder().setKey(key).setValue(value).build();
  }
}
