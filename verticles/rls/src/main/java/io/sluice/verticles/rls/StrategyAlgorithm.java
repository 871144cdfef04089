package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.algorithm.Gcra;
import io.sluice.verticles.strategies.algorithm.LeakyBucket;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code rate_limit} counted by one of Sluice's strategies instead of upstream's fixed window: a
 * sliding window of {@code requests} per {@code window}, or a bucket (token, leaky, GCRA) of
 * {@code burst} refilling at {@code requests} per {@code window}. Its state is the strategy's
 * (docs/strategy-state.md) in the record {@code rls:<domain>:<key>_<value>…:<algorithm>}, decided
 * on the shard that owns it by a {@link StrategyTask}.
 */
final class StrategyAlgorithm implements Algorithm {

  /** The strategies a {@code rate_limit} may name, with the wire number of each. */
  enum Kind {
    SLIDING_WINDOW(false),
    TOKEN_BUCKET(true),
    LEAKY_BUCKET(true),
    GCRA(true);

    private final boolean bucket;

    Kind(boolean bucket) {
      this.bucket = bucket;
    }

    /** As a config writes it: {@code sliding_window}, {@code token_bucket}, … */
    String spelling() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether it takes a {@code burst}. */
    boolean bucket() {
      return bucket;
    }

    static Optional<Kind> named(String spelling) {
      for (Kind kind : values()) {
        if (kind.spelling().equals(spelling)) {
          return Optional.of(kind);
        }
      }
      return Optional.empty();
    }
  }

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final Kind kind;
  private final long requests;
  private final long windowSeconds;
  private final long burst;
  private final Strategy strategy;

  /**
   * @param requests      1 or more: per window, or a bucket's refill per window
   * @param windowSeconds 1 or more
   * @param burst         a bucket's capacity, 1 or more; ignored by the sliding window
   * @throws IllegalArgumentException when the strategy refuses these (a GCRA faster than 1e9/s)
   */
  StrategyAlgorithm(Kind kind, long requests, long windowSeconds, long burst) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.requests = requests;
    this.windowSeconds = windowSeconds;
    this.burst = kind.bucket() ? burst : requests;
    Duration window = Duration.ofSeconds(windowSeconds);
    BucketPolicy bucket = kind.bucket() ? new BucketPolicy(burst, (double) requests / windowSeconds) : null;
    this.strategy = switch (kind) {
      case SLIDING_WINDOW -> new SlidingWindow(new Quota(Result.DEFAULT, requests, window));
      case TOKEN_BUCKET -> new TokenBucket(bucket);
      case LEAKY_BUCKET -> new LeakyBucket(bucket);
      case GCRA -> new Gcra(bucket);
    };
  }

  Kind kind() {
    return kind;
  }

  long requests() {
    return requests;
  }

  long burst() {
    return burst;
  }

  Strategy strategy() {
    return strategy;
  }

  @Override
  public String name() {
    return kind.spelling();
  }

  @Override
  public long windowSeconds() {
    return windowSeconds;
  }

  @Override
  public String describe(long requestsPerUnit, WindowUnit unit) {
    return Algorithm.rate(requestsPerUnit, unit, windowSeconds) + ", " + name() + (kind.bucket() ? ", burst " + burst : "");
  }

  @Override
  public byte[] recordKey(String domain, List<RateLimitDescriptor.Entry> entries, List<String> shared, long nowNanos) {
    return CounterKey.of(domain, entries, shared, name());
  }

  @Override
  public CountTask task(byte[] recordKey, long hits, long nowNanos) {
    return new StrategyTask(recordKey, this, hits);
  }

  /** Over with nothing remaining: a bucket's reset is its whole refill, a sliding window's its end. */
  @Override
  public Count overFromCache(long hits, long nowNanos) {
    long untilReset = kind.bucket() ? ceilDiv(saturatedProduct(burst, windowSeconds), requests)
        : ceilDiv(windowEnd(nowNanos) - nowNanos, NANOS_PER_SECOND);
    return new Count(burst + Math.max(hits, 1), burst, untilReset, 0, true);
  }

  private long windowEnd(long nowNanos) {
    long windowNanos = windowSeconds * NANOS_PER_SECOND;
    return nowNanos - Math.floorMod(nowNanos, windowNanos) + windowNanos;
  }

  /**
   * A decision in upstream's terms: admitted hits leave {@code capacity − remaining} used, denied
   * ones are all over. Reset: a sliding window's end; for a bucket, when it holds its whole burst
   * again (what is used, refilled at requests per window). A denied single hit stays denied until
   * its retry-after (nothing is consumed meanwhile without a request admitted); a larger cost's
   * retry-after says nothing of a smaller one's, so it is not offered to the cache.
   */
  Count countOf(Decision decision, long hits, long nowNanos) {
    Result result = decision.binding();
    long capacity = result.limit();
    long after = result.allowed() ? capacity - result.remaining() : capacity + hits;
    long untilReset = kind.bucket()
        ? ceilDiv(saturatedProduct(capacity - result.remaining(), windowSeconds), requests)
        : ceilDiv(Math.max(0, result.resetNs() - nowNanos), NANOS_PER_SECOND);
    boolean cacheable = !result.allowed() && hits == 1 && result.retryAfterNs() != Result.NEVER;
    long overUntil = cacheable ? saturatedSum(nowNanos, result.retryAfterNs()) : 0;
    return new Count(after, capacity, untilReset, overUntil);
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  private static long ceilDiv(long dividend, long divisor) {
    return -Math.floorDiv(-dividend, divisor);
  }

  private static long saturatedProduct(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high != 0 || low < 0 ? Long.MAX_VALUE : low;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StrategyAlgorithm that && kind == that.kind && requests == that.requests
        && windowSeconds == that.windowSeconds && burst == that.burst;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, requests, windowSeconds, burst);
  }

  @Override
  public String toString() {
    return name() + " " + requests + " per " + windowSeconds + " s" + (kind.bucket() ? ", burst " + burst : "");
  }
}
