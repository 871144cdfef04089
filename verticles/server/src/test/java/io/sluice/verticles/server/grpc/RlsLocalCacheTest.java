package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.sluice.verticles.server.kit.Scrapes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The local over-limit cache over gRPC, on the hand-moved clock: once a descriptor is found over,
 * the node answers OVER_LIMIT without asking the shard (its record stops counting) until the answer
 * could change, and counts those hits as envoyproxy/ratelimit does.
 */
class RlsLocalCacheTest {

  private static final String CONFIG = """
      domain: cache
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 2}
        - key: sliding
          rate_limit: {unit: minute, requests_per_unit: 2, algorithm: sliding_window}
      """;

  private static RlsFixture rls;

  @BeforeAll
  static void start() {
    rls = new RlsFixture(settings -> settings.withLocalCacheBytes(1 << 20), "cache.yaml", CONFIG);
  }

  @AfterAll
  static void stop() {
    rls.close();
  }

  @Test
  void aDescriptorFoundOverIsAnsweredFromMemoryUntilItsWindowEnds() {
    long now = rls.sut.clock().epochNanos() / 1_000_000_000L;
    String record = "rls:cache:user_u:" + (now - now % 60);
    assertThat(codes("user", 3)).containsExactly(Code.OK, Code.OK, Code.OVER_LIMIT);
    assertThat(rls.record(record)).isEqualTo("3");

    double hitsBefore = Scrapes.value(Scrapes.scrape(rls.http()), "sluice_rls_local_cache_hits_total");
    DescriptorStatus cached = rls.call(request("cache", descriptor("user", "u"))).getStatuses(0);
    assertThat(cached.getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(cached.getLimitRemaining()).isZero();
    assertThat(cached.getDurationUntilReset().getSeconds()).isEqualTo(60);
    assertThat(cached.getCurrentLimit().getRequestsPerUnit()).isEqualTo(2);
    assertThat(rls.record(record)).as("the shard was not asked").isEqualTo("3");
    assertThat(rls.call(request("cache", RlsFixture.withHits(descriptor("user", "u"), 0))).getOverallCode())
        .as("a look is over too, as the record is").isEqualTo(Code.OVER_LIMIT);

    String scraped = Scrapes.scrape(rls.http());
    assertThat(scraped)
        .contains("sluice_rls_over_limit_with_local_cache_total{descriptor=\"user\",domain=\"cache\"} 1.0")
        .contains("sluice_rls_over_limit_total{descriptor=\"user\",domain=\"cache\"} 2.0");
    assertThat(Scrapes.value(scraped, "sluice_rls_local_cache_hits_total")).isEqualTo(hitsBefore + 2);

    rls.sut.advance(Duration.ofSeconds(60));
    assertThat(codes("user", 1)).as("a new window: asked again").containsExactly(Code.OK);
  }

  @Test
  void aStrategysDenialIsRememberedUntilItsRetryAfter() {
    assertThat(codes("sliding", 4)).containsExactly(Code.OK, Code.OK, Code.OVER_LIMIT, Code.OVER_LIMIT);
    assertThat(Scrapes.scrape(rls.http()))
        .contains("sluice_rls_over_limit_with_local_cache_total{descriptor=\"sliding\",domain=\"cache\"} 1.0");
    try {
      // 2 × (1 − e/60) + 1 ≤ 2 from 30 s into the next window: 90 s after the denial.
      rls.sut.advance(Duration.ofSeconds(89));
      assertThat(codes("sliding", 1)).containsExactly(Code.OVER_LIMIT);
      rls.sut.advance(Duration.ofSeconds(1));
      assertThat(codes("sliding", 1)).containsExactly(Code.OK);
    } finally {
      // On to a whole minute, where the other test's window starts as it expects.
      rls.sut.advance(Duration.ofSeconds(30));
    }
  }

  private java.util.List<Code> codes(String key, int calls) {
    java.util.List<Code> codes = new java.util.ArrayList<>();
    for (int i = 0; i < calls; i++) {
      codes.add(rls.call(request("cache", descriptor(key, "u"))).getOverallCode());
    }
    return codes;
  }
}
