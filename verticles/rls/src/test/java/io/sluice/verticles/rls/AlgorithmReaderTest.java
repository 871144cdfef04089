package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sluice's extension fields of a rate_limit: algorithm, window and burst, and each refusal with its line. */
class AlgorithmReaderTest {

  private static RlsConfig parse(String yaml) throws RlsConfigException {
    return RlsConfigReader.parse(Map.of("rls.yaml", yaml));
  }

  private static Algorithm algorithmOf(RlsConfig config, String key) {
    return config.limitFor("d", List.of(RateLimitDescriptor.Entry.newBuilder().setKey(key).setValue("v").build()))
        .algorithm();
  }

  @Test
  void eachAlgorithmWithItsWindowAndBurst() throws Exception {
    RlsConfig config = parse("""
        domain: d
        descriptors:
          - key: plain
            rate_limit: {unit: minute, requests_per_unit: 10}
          - key: thirty
            rate_limit: {unit: second, requests_per_unit: 10, window: 30s}
          - key: sliding
            rate_limit: {unit: minute, requests_per_unit: 100, algorithm: sliding_window, window: 15m}
          - key: tokens
            rate_limit: {unit: second, requests_per_unit: 5, algorithm: token_bucket, burst: 20}
          - key: leaky
            rate_limit: {unit: minute, requests_per_unit: 60, algorithm: leaky_bucket}
          - key: gcra
            rate_limit: {unit: hour, requests_per_unit: 7, algorithm: gcra, burst: 2, window: 1m}
        """);
    assertThat(algorithmOf(config, "plain")).isEqualTo(new CountedWindow(60, 10));
    assertThat(algorithmOf(config, "thirty")).isEqualTo(new CountedWindow(30, 10));
    assertThat(algorithmOf(config, "sliding"))
        .isEqualTo(new StrategyAlgorithm(StrategyAlgorithm.Kind.SLIDING_WINDOW, 100, 900, 100));
    assertThat(algorithmOf(config, "tokens"))
        .isEqualTo(new StrategyAlgorithm(StrategyAlgorithm.Kind.TOKEN_BUCKET, 5, 1, 20));
    assertThat(algorithmOf(config, "leaky"))
        .isEqualTo(new StrategyAlgorithm(StrategyAlgorithm.Kind.LEAKY_BUCKET, 60, 60, 60));
    assertThat(algorithmOf(config, "gcra")).isEqualTo(new StrategyAlgorithm(StrategyAlgorithm.Kind.GCRA, 7, 60, 2));
    assertThat(List.of("plain", "thirty", "sliding", "tokens").stream().map(key -> config.limitFor("d",
        List.of(RateLimitDescriptor.Entry.newBuilder().setKey(key).setValue("v").build())).describe()))
        .as("as the dashboard lists them")
        .containsExactly("10 per minute", "10 per 30s", "100 per 15m, sliding_window", "5 per second, token_bucket, burst 20");
  }

  @Test
  void onlyMalformedFieldsAreRefused() {
    assertThatThrownBy(() -> parse("""
        domain: d
        descriptors:
          - key: a
            rate_limit: {unit: second, requests_per_unit: 5, algorithm: rolling}
          - key: b
            rate_limit: {unit: second, requests_per_unit: 5, algorithm: sliding_window, burst: 3}
          - key: c
            rate_limit: {unit: second, requests_per_unit: 5, window: 1500ms}
          - key: d
            rate_limit: {unit: second, requests_per_unit: 5, window: soon}
          - key: e
            rate_limit: {unit: second, requests_per_unit: 0, algorithm: gcra}
          - key: f
            rate_limit: {unit: second, requests_per_unit: 5, algorithm: token_bucket, burst: 0}
          - key: g
            rate_limit: {unlimited: true, algorithm: gcra}
          - key: h
            rate_limit: {unit: second, requests_per_unit: 4000000000, algorithm: gcra, window: 1s}
        """)).isInstanceOf(RlsConfigException.class).extracting(e -> ((RlsConfigException) e).problems())
        .asList().containsExactly(
            "rls.yaml:4: descriptors[0].rate_limit.algorithm: must be one of fixed_window, sliding_window, token_bucket,"
                + " leaky_bucket, gcra, found 'rolling'",
            "rls.yaml:6: descriptors[1].rate_limit.burst: only token_bucket, leaky_bucket and gcra take a burst",
            "rls.yaml:8: descriptors[2].rate_limit.window: must be whole seconds (30s, 15m, 1h), found '1500ms'",
            "rls.yaml:10: descriptors[3].rate_limit.window: must be a positive duration with a unit (500ms, 10s, 5m, 1h,"
                + " 1d) of whole seconds, found 'soon'",
            "rls.yaml:12: descriptors[4].rate_limit.requests_per_unit: must be at least 1 with algorithm gcra (0 refuses"
                + " everything: leave the algorithm out)",
            "rls.yaml:14: descriptors[5].rate_limit.burst: must be a whole number from 1 to 4294967295, found the string \"0\"",
            "rls.yaml:16: descriptors[6].rate_limit.algorithm: an unlimited limit has no algorithm",
            "rls.yaml:18: descriptors[7].rate_limit.algorithm: GCRA rate must be at most 1e9 per second, was 4.0E9");
  }
}
