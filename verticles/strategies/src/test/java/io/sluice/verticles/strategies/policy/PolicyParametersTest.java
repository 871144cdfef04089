package io.sluice.verticles.strategies.policy;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the Limits view shows of a policy is what its config file said, read back. */
class PolicyParametersTest {

  private static Map<String, Object> parsed(Object... fields) {
    Map<String, Object> spec = new LinkedHashMap<>();
    for (int i = 0; i < fields.length; i += 2) {
      spec.put((String) fields[i], fields[i + 1]);
    }
    List<String> problems = new ArrayList<>();
    Policy policy = PolicyParser.parse("p", spec, problems);
    assertThat(problems).isEmpty();
    return PolicyParameters.of(policy.strategy());
  }

  @Test
  void eachStrategyIsSpelledAsInTheFile() {
    assertThat(parsed("strategy", "fixed_window", "limit", "5", "window", "10s")).isEqualTo(Map.of(
        "strategy", "fixed_window", "quotas", List.of(Map.of("name", "default", "limit", 5L, "window", "10s"))));
    assertThat(parsed("strategy", "gcra", "burst", "20", "rate", "0.5"))
        .hasToString("{strategy=gcra, burst=20, rate=0.5}");
    assertThat(parsed("strategy", "token_bucket", "burst", "3", "rate", "2"))
        .hasToString("{strategy=token_bucket, burst=3, rate=2}");
    assertThat(parsed("strategy", "decaying_rate", "limit", "22", "period", "20s", "strict", "true"))
        .hasToString("{strategy=decaying_rate, limit=22, period=20s, strict=true}");
    assertThat(parsed("strategy", "composite",
        "primary", Map.of("limit", "100", "window", "1h"),
        "secondary", Map.of("strategy", "leaky_bucket", "burst", "10", "rate", "1")))
        .hasToString("{strategy=composite, primary={quotas=[{name=default, limit=100, window=1h}]}, "
            + "secondary={strategy=leaky_bucket, burst=10, rate=1}}");
  }

  @Test
  void durationsTakeTheLargestExactUnit() {
    assertThat(PolicyParameters.duration(java.time.Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(PolicyParameters.duration(java.time.Duration.ofMinutes(90))).isEqualTo("90m");
    assertThat(PolicyParameters.duration(java.time.Duration.ofDays(2))).isEqualTo("2d");
  }
}
