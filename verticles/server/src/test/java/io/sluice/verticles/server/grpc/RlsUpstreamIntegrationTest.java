package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit.Unit;
import io.envoyproxy.envoy.type.v3.RateLimitUnit;
import io.sluice.verticles.rls.RlsBehaviour;
import io.sluice.verticles.rls.RlsStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.grpc.RlsFixture.withHits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * envoyproxy/ratelimit's integration expectations ({@code test/integration/integration_test.go}
 * with its {@code runtime/current/ratelimit/config/} files, in our own names) and its service's
 * semantics ({@code src/service/ratelimit.go}, {@code src/limiter/base_limiter.go}), over a real
 * gRPC socket with grpc-java. The clock stands still, so each test's calls share their windows;
 * each test uses keys of its own.
 */
class RlsUpstreamIntegrationTest {

  private static final String BASIC = """
      domain: basic
      descriptors:
        - key: per_second
          rate_limit: {unit: second, requests_per_unit: 50}
        - key: one_per_minute
          rate_limit: {unit: minute, requests_per_unit: 1}
      """;
  private static final String ANOTHER = """
      domain: another
      descriptors:
        - key: per_minute
          rate_limit: {unit: minute, requests_per_unit: 20}
        - key: per_hour
          rate_limit: {unit: hour, requests_per_unit: 10}
        - key: per_day
          rate_limit: {unit: day, requests_per_unit: 20}
      """;
  private static final String SEMANTICS = """
      domain: semantics
      descriptors:
        - key: free
          rate_limit: {unlimited: true, name: free, replaces: [{name: capped}]}
        - key: capped
          rate_limit: {unit: minute, requests_per_unit: 1, name: capped}
        - key: shadow
          shadow_mode: true
          rate_limit: {unit: minute, requests_per_unit: 10}
        - key: quota_a
          quota_mode: true
          rate_limit: {unit: minute, requests_per_unit: 1}
        - key: quota_b
          quota_mode: true
          rate_limit: {unit: minute, requests_per_unit: 3}
        - key: strict
          rate_limit: {unit: minute, requests_per_unit: 2}
        - key: loose
          rate_limit: {unit: minute, requests_per_unit: 100}
        - key: object
          value: photos/*
          share_threshold: true
          rate_limit: {unit: minute, requests_per_unit: 2}
        - key: route
          value_to_metric: true
          descriptors:
            - key: verb
              rate_limit: {unit: minute, requests_per_unit: 5}
      """;

  private static RlsFixture rls;

  @BeforeAll
  static void start() {
    rls = new RlsFixture(true, "basic.yaml", BASIC, "another.yaml", ANOTHER, "semantics.yaml", SEMANTICS);
  }

  @AfterAll
  static void stop() {
    rls.close();
  }

  private static DescriptorStatus status(Code code, int requestsPerUnit, Unit unit, int remaining, long reset) {
    return DescriptorStatus.newBuilder().setCode(code)
        .setCurrentLimit(RateLimitResponse.RateLimit.newBuilder().setRequestsPerUnit(requestsPerUnit).setUnit(unit))
        .setLimitRemaining(remaining).setDurationUntilReset(com.google.protobuf.Duration.newBuilder().setSeconds(reset))
        .build();
  }

  private static Optional<RlsStats.Counts> stats(String domain, String descriptor) {
    return rls.rls().stats().all().stream()
        .filter(counts -> counts.domain().equals(domain) && counts.descriptor().equals(descriptor)).findFirst();
  }

  /** testBasicBaseConfig: an unknown domain answers OK without a limit. */
  @Test
  void anUnknownDomainIsOkWithoutALimit() {
    RateLimitResponse response = rls.call(request("nowhere", descriptor("per_second", "x")));
    assertThat(response.getOverallCode()).isEqualTo(Code.OK);
    assertThat(response.getStatusesList()).containsExactly(DescriptorStatus.newBuilder().setCode(Code.OK).build());
  }

  /** testBasicBaseConfig: the first hit of 50 a second leaves 49, counted in total_hits. */
  @Test
  void aFirstHitLeavesAllButOne() {
    RateLimitResponse response = rls.call(request("basic", descriptor("per_second", "first")));
    assertThat(response.getStatusesList()).containsExactly(status(Code.OK, 50, Unit.SECOND, 49, 1));
    assertThat(stats("basic", "per_second").orElseThrow().totalHits()).isEqualTo(1);
  }

  /** testBasicBaseConfig: 25 hits on 20 a minute, the last 5 over, each counted as upstream counts it. */
  @Test
  void twentyFiveHitsOnTwentyAMinute() {
    // Another test counts on the same configured path: compare with what was there before.
    long hitsBefore = stats("another", "per_minute").map(RlsStats.Counts::totalHits).orElse(0L);
    long overBefore = stats("another", "per_minute").map(RlsStats.Counts::overLimit).orElse(0L);
    for (int i = 0; i < 25; i++) {
      RateLimitResponse response = rls.call(request("another", descriptor("per_minute", "loop")));
      Code code = i >= 20 ? Code.OVER_LIMIT : Code.OK;
      assertThat(response.getOverallCode()).isEqualTo(code);
      assertThat(response.getStatusesList()).containsExactly(status(code, 20, Unit.MINUTE, Math.max(0, 19 - i), 60));
      RlsStats.Counts counts = stats("another", "per_minute").orElseThrow();
      assertThat(counts.totalHits() - hitsBefore).isEqualTo(i + 1);
      assertThat(counts.overLimit() - overBefore).isEqualTo(Math.max(0, i - 19));
    }
  }

  /** testBasicBaseConfig: two descriptors, the second limited first; each status apart. */
  @Test
  void twoDescriptorsAnsweredApart() {
    for (int i = 0; i < 15; i++) {
      RateLimitResponse response = rls.call(request("another", descriptor("per_minute", "pair"),
          descriptor("per_hour", "pair")));
      Code second = i >= 10 ? Code.OVER_LIMIT : Code.OK;
      assertThat(response.getOverallCode()).isEqualTo(second);
      assertThat(response.getStatusesList()).containsExactly(status(Code.OK, 20, Unit.MINUTE, 19 - i, 60),
          status(second, 10, Unit.HOUR, Math.max(0, 9 - i), 3600));
    }
  }

  /** testBasicBaseConfig (one_per_minute): a second hit in the minute is over; headers name the over one. */
  @Test
  void oneAMinuteAndTheHeadersOfTheLimitOver() {
    rls.call(request("basic", descriptor("one_per_minute", "h")));
    RateLimitResponse over = rls.call(request("basic", descriptor("per_second", "h"), descriptor("one_per_minute", "h")));
    assertThat(over.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(over.getResponseHeadersToAddList()).extracting(HeaderValue::getKey, HeaderValue::getValue)
        .containsExactly(tuple("RateLimit-Limit", "1"), tuple("RateLimit-Remaining", "0"), tuple("RateLimit-Reset", "60"));
  }

  /** GetLimit: a request's override applies on a known domain, counted under the request's path; on an unknown one, none. */
  @Test
  void anOverrideAppliesOnlyOnAKnownDomain() {
    RateLimitDescriptor overridden = descriptor("per_day", "o", "sub", "v").toBuilder()
        .setLimit(RateLimitDescriptor.RateLimitOverride.newBuilder().setRequestsPerUnit(1).setUnit(RateLimitUnit.MINUTE))
        .build();
    rls.call(request("another", overridden));
    RateLimitResponse over = rls.call(request("another", overridden));
    assertThat(over.getStatusesList()).containsExactly(status(Code.OVER_LIMIT, 1, Unit.MINUTE, 0, 60));
    assertThat(stats("another", "per_day_o.sub_v").orElseThrow().totalHits()).isEqualTo(2);

    RateLimitResponse unknown = rls.call(request("nowhere", overridden));
    assertThat(unknown.getStatusesList()).containsExactly(DescriptorStatus.newBuilder().setCode(Code.OK).build());
  }

  /** constructLimitsToCheck: unlimited answers the largest remaining, counts nothing, and still replaces. */
  @Test
  void unlimitedCountsNothingAndReplaces() {
    RateLimitResponse response = rls.call(request("semantics", descriptor("free", "f"), descriptor("capped", "f")));
    rls.call(request("semantics", descriptor("free", "f"), descriptor("capped", "f")));
    assertThat(response.getStatuses(0).getLimitRemaining()).isEqualTo(-1); // 4294967295 unsigned
    assertThat(response.getStatuses(1)).as("replaced").isEqualTo(DescriptorStatus.newBuilder().setCode(Code.OK).build());
    assertThat(stats("semantics", "free")).isEmpty();
    assertThat(stats("semantics", "capped")).isEmpty();
  }

  /** base_limiter: shadow_mode counts only the hits past the limit, and answers OK. */
  @Test
  void shadowModeCountsTheHitsPastTheLimit() {
    RateLimitResponse response = rls.call(request("semantics", withHits(descriptor("shadow", "s"), 13)));
    assertThat(response.getOverallCode()).isEqualTo(Code.OK);
    RlsStats.Counts counts = stats("semantics", "shadow").orElseThrow();
    assertThat(counts.shadowMode()).isEqualTo(3);
    assertThat(counts.overLimit()).isEqualTo(3);
    assertThat(counts.nearLimit()).isEqualTo(2);
  }

  /** shouldRateLimitWorker: quota-mode limits refuse only when all of them are over; others always. */
  @Test
  void quotaModeRefusesOnlyWhenEveryQuotaIsOver() {
    rls.call(request("semantics", descriptor("quota_a", "q"), descriptor("quota_b", "q")));
    RateLimitResponse oneOver = rls.call(request("semantics", descriptor("quota_a", "q"), descriptor("quota_b", "q")));
    assertThat(oneOver.getStatuses(0).getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(oneOver.getOverallCode()).isEqualTo(Code.OK);
    RateLimitResponse allOver = rls.call(request("semantics", descriptor("quota_a", "q"), withHits(descriptor("quota_b", "q"), 5)));
    assertThat(allOver.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
  }

  /** cache_key: the values a share_threshold wildcard matches share its counter. */
  @Test
  void sharedWildcardValuesShareOneCounter() {
    rls.call(request("semantics", descriptor("object", "photos/a.jpg")));
    rls.call(request("semantics", descriptor("object", "photos/b.jpg")));
    RateLimitResponse third = rls.call(request("semantics", descriptor("object", "photos/c.jpg")));
    assertThat(third.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(stats("semantics", "object_photos/*").orElseThrow().totalHits()).isEqualTo(3);
  }

  /** config_impl: value_to_metric names the request's value in the statistics path. */
  @Test
  void valueToMetricNamesTheRequestValue() {
    rls.call(request("semantics", descriptor("route", "draw", "verb", "GET")));
    assertThat(stats("semantics", "route_draw.verb").orElseThrow().totalHits()).isEqualTo(1);
  }

  /** STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT: a refused request counts only on the limits it goes over. */
  @Test
  void aRefusedRequestDoesNotUseUpItsOtherLimits() {
    RlsBehaviour behaviour = new RlsBehaviour(false, "a", "b", "c", 0.8f, false, true, false, false);
    try (RlsFixture stopping = new RlsFixture(behaviour, false, "s.yaml", """
        domain: stop
        descriptors:
          - key: tight
            rate_limit: {unit: minute, requests_per_unit: 1}
          - key: wide
            rate_limit: {unit: minute, requests_per_unit: 5}
        """)) {
      stopping.call(request("stop", descriptor("tight", "x"), descriptor("wide", "x")));
      RateLimitResponse refused = stopping.call(request("stop", descriptor("tight", "x"), descriptor("wide", "x")));
      assertThat(refused.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(refused.getStatuses(1).getLimitRemaining()).as("wide not counted").isEqualTo(4);
      RateLimitResponse wideAlone = stopping.call(request("stop", descriptor("wide", "x")));
      assertThat(wideAlone.getStatuses(0).getLimitRemaining()).isEqualTo(3);
      RateLimitResponse tightAlone = stopping.call(request("stop", descriptor("tight", "x")));
      assertThat(tightAlone.getOverallCode()).as("the limit gone over is counted").isEqualTo(Code.OVER_LIMIT);
    }
  }

  /** SHADOW_MODE, LIMIT_*_HEADER, NEAR_LIMIT_RATIO and MERGE_DOMAIN_CONFIG, set as settings. */
  @Test
  void theGlobalSettings() {
    RlsBehaviour behaviour = new RlsBehaviour(true, "X-Limit", "X-Left", "X-Reset", 0.5f, true, false, false, false);
    try (RlsFixture global = new RlsFixture(behaviour, true,
        "a.yaml", "domain: merged\ndescriptors: [{key: a, rate_limit: {unit: minute, requests_per_unit: 4}}]\n",
        "b.yaml", "domain: merged\ndescriptors: [{key: b, rate_limit: {unit: minute, requests_per_unit: 1}}]\n")) {
      global.call(request("merged", descriptor("b", "x")));
      RateLimitResponse response = global.call(request("merged", withHits(descriptor("a", "x"), 3), descriptor("b", "x")));
      assertThat(response.getOverallCode()).as("global shadow mode").isEqualTo(Code.OK);
      assertThat(response.getStatuses(1).getCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(global.rls().stats().globalShadowModeCalls()).isEqualTo(1);
      assertThat(response.getResponseHeadersToAddList()).extracting(HeaderValue::getKey, HeaderValue::getValue)
          .containsExactly(tuple("X-Limit", "1"), tuple("X-Left", "0"), tuple("X-Reset", "60"));
      RlsStats.Counts a = global.rls().stats().all().stream().filter(c -> c.descriptor().equals("a")).findFirst().orElseThrow();
      assertThat(a.nearLimit()).as("past half of 4").isEqualTo(1);
    }
  }
}
