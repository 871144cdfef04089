package io.sluice.verticles.server.check;

import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.OnFull;
import io.sluice.verticles.strategies.policy.Policy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code shadow: true}: the policy decides, counts and reports as usual (RateLimit headers,
 * Sluice-Shadow, the body, /metrics) but every request is allowed, so a new limit can be watched
 * before it bites. Over HTTP, next to the same limit enforced.
 */
class ShadowModeTest {

  private static FixedWindow twoPerMinute() {
    return new FixedWindow(WindowPolicy.of(new Quota("minute", 2, Duration.ofMinutes(1))));
  }

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("trial", twoPerMinute(), KeyExtractor.PARAM, false, true, OnFull.ALLOW),
      new Policy("enforced", twoPerMinute(), KeyExtractor.PARAM, false, false, OnFull.ALLOW)));

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void aShadowPolicyReportsItsDenialButAllows() {
    for (int i = 0; i < 2; i++) {
      Answer allowed = f.check("trial", "alice");
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.header("Sluice-Shadow")).isEqualTo("allowed");
      assertThat(f.check("enforced", "alice").header("Sluice-Shadow")).as("only shadow policies say so").isNull();
    }
    Answer wouldDeny = f.check("trial", "alice");
    assertThat(wouldDeny.status()).isEqualTo(200);
    assertThat(wouldDeny.header("Sluice-Shadow")).isEqualTo("denied");
    assertThat(wouldDeny.header("RateLimit")).isEqualTo("\"trial\";r=0;t=60");
    assertThat(wouldDeny.header("Retry-After")).as("nothing to wait for: it was allowed").isNull();
    assertThat(wouldDeny.json().getBoolean("allowed")).isTrue();
    assertThat(wouldDeny.json().getString("shadow")).isEqualTo("denied");
    assertThat(wouldDeny.json().getInteger("remaining")).isZero();

    Answer forwarded = f.http.get("/v1/check/trial?key=alice");
    assertThat(forwarded.status()).as("the way nginx and Envoy ask").isEqualTo(200);
    assertThat(forwarded.header("Sluice-Shadow")).isEqualTo("denied");
    assertThat(f.check("enforced", "alice").status()).as("the same limit enforced").isEqualTo(429);

    String scrape = f.http.get("/metrics").body();
    assertThat(scrape)
        .contains("sluice_check_decisions_total{decision=\"allowed\",policy=\"trial\"} 2.0")
        .contains("sluice_check_decisions_total{decision=\"shadow_denied\",policy=\"trial\"} 2.0")
        .contains("sluice_check_decisions_total{decision=\"denied\",policy=\"enforced\"} 1.0")
        .contains("sluice_check_denials_total{policy=\"trial\",quota=\"minute\"} 2.0")
        .doesNotContain("sluice_check_decisions_total{decision=\"denied\",policy=\"trial\"}");
  }
}
