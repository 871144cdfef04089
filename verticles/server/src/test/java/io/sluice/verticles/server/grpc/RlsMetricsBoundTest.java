package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.grpc.ManagedChannel;
import io.sluice.verticles.server.kit.LiveHeap;
import io.sluice.verticles.rls.RlsStats;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.kit.Scrapes.scrape;
import static io.sluice.verticles.server.kit.Scrapes.value;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 30, item 4: under {@code detailed_metric} a client chooses the {@code descriptor} label's
 * values. 30,000 of them over gRPC made /metrics 13 MB and 150,000 lines; now the first
 * {@link RlsStats#MAX_DETAILED_PATHS} have series of their own and the rest count under
 * {@code other}, in /metrics as in the dashboard's /api/rls.
 */
class RlsMetricsBoundTest {

  private static final int VALUES = 30_000;
  private static final int VALUES_PER_REQUEST = 250;
  /** sluice_rls_total_hits_total, _over_limit_, _near_limit_, _within_limit_, _shadow_mode_, _over_limit_with_local_cache_. */
  private static final int FAMILIES = 6;
  private static final long MOST_HEAP_GROWTH = 32L << 20;

  @Test
  void thirtyThousandRequestValuesAddABoundedNumberOfSeries() {
    try (RlsFixture rls = new RlsFixture("detailed.yaml", """
        domain: detailed
        descriptors:
          - key: user
            detailed_metric: true
            rate_limit:
              unit: minute
              requests_per_unit: 10
        """)) {
      rls.call(request("detailed", descriptor("user", "first")));
      String before = scrape(rls.http());
      long heapBefore = LiveHeap.bytes();

      for (int from = 1; from < VALUES; from += VALUES_PER_REQUEST) {
        RateLimitDescriptor[] values = IntStream.range(from, Math.min(from + VALUES_PER_REQUEST, VALUES))
            .mapToObj(i -> descriptor("user", "attacker-" + i)).toArray(RateLimitDescriptor[]::new);
        assertThat(rls.call(request("detailed", values)).getOverallCode()).isEqualTo(Code.OK);
      }
      String after = scrape(rls.http());
      long heapGrowth = LiveHeap.bytes() - heapBefore;

      int addedLines = lines(after) - lines(before);
      // Each family gains a series per kept value past the first, one for "other", and none else.
      int series = FAMILIES * RlsStats.MAX_DETAILED_PATHS;
      assertThat(addedLines).as("lines added by %d request values", VALUES).isBetween(series - 10, series + 100);
      assertThat(after.length()).as("bytes of /metrics").isLessThan(before.length() + series * 200);
      // The 30,000 values' own counters in the shards included (the probe measured 114 MB before the bound).
      assertThat(heapGrowth).as("live heap growth (9 MB measured)").isLessThan(MOST_HEAP_GROWTH);
      String other = "sluice_rls_total_hits_total{descriptor=\"" + RlsStats.OTHER + "\",domain=\"detailed\"}";
      assertThat(value(after, other)).isEqualTo(VALUES - RlsStats.MAX_DETAILED_PATHS);
      assertThat(value(after, "sluice_rls_within_limit_total{descriptor=\"user_first\",domain=\"detailed\"}"))
          .isEqualTo(1);
      assertThat(rls.rls().stats().all()).hasSize(RlsStats.MAX_DETAILED_PATHS + 1);

      // A fresh client is served, its own counter kept apart from the limit's statistics.
      ManagedChannel fresh = RlsFixture.channel(rls.sut.grpcPort());
      try {
        RateLimitResponse answer = RlsFixture.call(fresh, request("detailed", descriptor("user", "fresh")));
        assertThat(answer.getOverallCode()).isEqualTo(Code.OK);
        assertThat(answer.getStatuses(0).getLimitRemaining()).isEqualTo(9);
      } finally {
        fresh.shutdownNow();
      }
      assertThat(value(scrape(rls.http()), other)).isEqualTo(VALUES - RlsStats.MAX_DETAILED_PATHS + 1);
    }
  }

  private static int lines(String scrape) {
    return scrape.split("\n").length;
  }
}
