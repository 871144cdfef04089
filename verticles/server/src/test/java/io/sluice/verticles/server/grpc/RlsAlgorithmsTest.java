package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static io.sluice.verticles.server.grpc.RlsFixture.T0_SECONDS;
import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's {@code algorithm:} on a descriptor, over gRPC on the hand-moved clock: each algorithm
 * grants exactly what it allows to 16 concurrent clients, and answers remaining and
 * duration_until_reset in its own terms. Each test uses a descriptor value of its own.
 */
class RlsAlgorithmsTest {

  private static final String CONFIG = """
      domain: algos
      descriptors:
        - key: sliding
          rate_limit: {unit: minute, requests_per_unit: 10, algorithm: sliding_window}
        - key: token
          rate_limit: {unit: minute, requests_per_unit: 1, algorithm: token_bucket, burst: 7}
        - key: leaky
          rate_limit: {unit: minute, requests_per_unit: 1, algorithm: leaky_bucket, burst: 7}
        - key: gcra
          rate_limit: {unit: minute, requests_per_unit: 1, algorithm: gcra, burst: 7}
        - key: thirty
          rate_limit: {unit: second, requests_per_unit: 10, window: 30s}
      """;

  private static RlsFixture rls;

  @BeforeAll
  static void start() {
    rls = new RlsFixture("algos.yaml", CONFIG);
  }

  @AfterAll
  static void stop() {
    rls.close();
  }

  /** The clock stands still: buckets do not refill, the window does not slide, during the race. */
  @ParameterizedTest
  @CsvSource({"sliding, 10", "token, 7", "leaky, 7", "gcra, 7", "thirty, 10"})
  void exactlyWhatTheAlgorithmAllowsIsGrantedToSixteenConcurrentClients(String key, int allowed) throws Exception {
    assertThat(rls.grantedToConcurrentClients(16, 2, request("algos", descriptor(key, "race")))).isEqualTo(allowed);
  }

  @ParameterizedTest
  @CsvSource({
      // key,   remaining after one, its reset, reset when over
      "sliding, 9, 60, 60",      // the window's end, as a fixed window's
      "token,   6, 60, 420",     // a bucket is whole again after (burst − remaining) / rate
      "leaky,   6, 60, 420",
      "gcra,    6, 60, 420",
      "thirty,  9, 30, 30"})     // a fixed window of its own length
  void remainingAndResetAreTheAlgorithms(String key, int remaining, long reset, long resetWhenOver) {
    DescriptorStatus first = rls.call(request("algos", descriptor(key, "fields"))).getStatuses(0);
    assertThat(first.getCode()).isEqualTo(Code.OK);
    assertThat(first.getLimitRemaining()).isEqualTo(remaining);
    assertThat(first.getDurationUntilReset().getSeconds()).isEqualTo(reset);
    DescriptorStatus over = null;
    for (int i = 0; i < 10 && over == null; i++) {
      DescriptorStatus status = rls.call(request("algos", descriptor(key, "fields"))).getStatuses(0);
      over = status.getCode() == Code.OVER_LIMIT ? status : null;
    }
    assertThat(over).as("over the limit within 11 calls").isNotNull();
    assertThat(over.getLimitRemaining()).isZero();
    assertThat(over.getDurationUntilReset().getSeconds()).isEqualTo(resetWhenOver);
  }

  @Test
  void theStateIsTheStrategysAndTheWindowSlides() {
    for (int i = 0; i < 10; i++) {
      rls.call(request("algos", descriptor("sliding", "slide")));
    }
    long windowStartNanos = (T0_SECONDS - T0_SECONDS % 60) * 1_000_000_000L;
    assertThat(rls.record("rls:algos:sliding_slide:sliding_window")).isEqualTo("71|0|10|" + windowStartNanos);
    rls.sut.advance(Duration.ofSeconds(75));
    try {
      // 75 s: a quarter into the next window, 10 × 0.75 = 7.5 of the previous still counts: 2 more fit.
      RateLimitResponse next = rls.call(request("algos", descriptor("sliding", "slide")));
      assertThat(next.getOverallCode()).isEqualTo(Code.OK);
      assertThat(next.getStatuses(0).getLimitRemaining()).isEqualTo(1);
      assertThat(rls.call(request("algos", descriptor("sliding", "slide"))).getOverallCode()).isEqualTo(Code.OK);
      assertThat(rls.call(request("algos", descriptor("sliding", "slide"))).getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    } finally {
      // On to a whole number of minutes after T0, where the other tests' windows start as they expect.
      rls.sut.advance(Duration.ofSeconds(45));
    }
  }
}
