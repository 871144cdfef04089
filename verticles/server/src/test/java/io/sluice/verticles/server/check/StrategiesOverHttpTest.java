package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.DecayPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.Composite;
import io.sluice.verticles.strategies.algorithm.DecayingRate;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.Gcra;
import io.sluice.verticles.strategies.algorithm.LeakyBucket;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.sluice.verticles.server.check.CheckFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each strategy over real HTTP: allowed up to its limit, then 429, with the exact header fields and
 * body, and the state record in the strategies' format as a Throttr GET shows it. Figures follow
 * spec §9.2 where it has vectors.
 */
class StrategiesOverHttpTest {

  private static final FixedWindow FIVE_PER_TEN_SECONDS =
      new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofSeconds(10))));

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("fw", FIVE_PER_TEN_SECONDS),
      new Policy("plan", new FixedWindow(WindowPolicy.of(new Quota("minute", 2, Duration.ofMinutes(1)),
          new Quota("hour", 100, Duration.ofHours(1)))), KeyExtractor.PARAM, true),
      new Policy("tb", new TokenBucket(new BucketPolicy(3, 1))),
      new Policy("lb", new LeakyBucket(new BucketPolicy(3, 1))),
      new Policy("gcra", new Gcra(new BucketPolicy(3, 5))),
      new Policy("both", new Composite(new FixedWindow(WindowPolicy.of(new Quota("default", 2, Duration.ofSeconds(10)))),
          new TokenBucket(new BucketPolicy(1, 0.1)))),
      new Policy("decay", new DecayingRate(new DecayPolicy(2, Duration.ofSeconds(10), false)))));

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void fixedWindowAllowsFiveThenDeniesUntilTheWindowEnds() {
    for (int remaining = 4; remaining >= 0; remaining--) {
      Answer allowed = f.check("fw", "alice");
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.header("RateLimit-Policy")).isEqualTo("\"fw\";q=5;w=10");
      assertThat(allowed.header("RateLimit")).isEqualTo("\"fw\";r=" + remaining + ";t=10");
      assertThat(allowed.header("Retry-After")).isNull();
      assertThat(allowed.header("X-RateLimit-Limit")).isNull();
      assertThat(allowed.header("Content-Type")).isEqualTo("application/json");
      assertThat(allowed.body()).isEqualTo(
          "{\"allowed\":true,\"limit\":5,\"remaining\":" + remaining + ",\"reset\":10,\"retry_after\":0}");
    }
    assertThat(f.state("rl:fw:alice")).isEqualTo("23|1|default|5|" + T0);

    Answer denied = f.check("fw", "alice");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit-Policy")).isEqualTo("\"fw\";q=5;w=10");
    assertThat(denied.header("RateLimit")).isEqualTo("\"fw\";r=0;t=10");
    assertThat(denied.header("Retry-After")).isEqualTo("10");
    assertThat(denied.body()).isEqualTo("{\"allowed\":false,\"limit\":5,\"remaining\":0,\"reset\":10,\"retry_after\":10}");

    f.advance(Duration.ofMillis(6_500));
    Answer later = f.check("fw", "alice");
    assertThat(later.status()).isEqualTo(429);
    assertThat(later.header("RateLimit")).isEqualTo("\"fw\";r=0;t=4");
    assertThat(later.header("Retry-After")).isEqualTo("4");
    assertThat(f.check("fw", "bob").status()).as("another key has its own window").isEqualTo(200);

    f.advance(Duration.ofMillis(3_500));
    Answer nextWindow = f.check("fw", "alice");
    assertThat(nextWindow.status()).isEqualTo(200);
    assertThat(nextWindow.header("RateLimit")).isEqualTo("\"fw\";r=4;t=10");
    assertThat(f.state("rl:fw:alice")).isEqualTo("23|1|default|1|" + (T0 + 10_000_000_000L));
  }

  @Test
  void fixedWindowQuotasAreOneItemEachAndLegacyFieldsFollowTheBindingQuota() {
    Answer first = f.check("plan", "k");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("RateLimit-Policy")).isEqualTo("\"plan:minute\";q=2;w=60, \"plan:hour\";q=100;w=3600");
    assertThat(first.header("RateLimit")).isEqualTo("\"plan:minute\";r=1;t=60, \"plan:hour\";r=99;t=3600");
    assertThat(first.header("X-RateLimit-Limit")).isEqualTo("2");
    assertThat(first.header("X-RateLimit-Remaining")).isEqualTo("1");
    assertThat(first.header("X-RateLimit-Reset")).isEqualTo(Long.toString(T0 / 1_000_000_000L + 60));
    assertThat(f.check("plan", "k").status()).isEqualTo(200);

    Answer denied = f.check("plan", "k");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit")).isEqualTo("\"plan:minute\";r=0;t=60, \"plan:hour\";r=98;t=3600");
    assertThat(denied.header("Retry-After")).isEqualTo("60");
    assertThat(denied.header("X-RateLimit-Remaining")).isEqualTo("0");
    assertThat(f.state("rl:plan:k")).isEqualTo("23|2|minute|2|" + T0 + "|hour|2|" + T0);
  }

  @Test
  void tokenBucketSpendsItsBurstThenWaitsForARefill() {
    for (int remaining = 2; remaining >= 0; remaining--) {
      Answer allowed = f.check("tb", "k");
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.header("RateLimit-Policy")).isEqualTo("\"tb\";q=3;w=3");
      // A bucket's reset is "now" when it admits (spec §4).
      assertThat(allowed.header("RateLimit")).isEqualTo("\"tb\";r=" + remaining + ";t=0");
    }
    assertThat(f.state("rl:tb:k")).isEqualTo("12|0|" + T0);

    Answer denied = f.check("tb", "k");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit")).isEqualTo("\"tb\";r=0;t=1");
    assertThat(denied.header("Retry-After")).isEqualTo("1");
    assertThat(denied.body()).isEqualTo("{\"allowed\":false,\"limit\":3,\"remaining\":0,\"reset\":1,\"retry_after\":1}");
    assertThat(f.state("rl:tb:k")).as("a denial writes nothing").isEqualTo("12|0|" + T0);

    f.advance(Duration.ofSeconds(1));
    assertThat(f.check("tb", "k").status()).isEqualTo(200);
    assertThat(f.state("rl:tb:k")).isEqualTo("12|0|" + (T0 + 1_000_000_000L));
  }

  @Test
  void leakyBucketFillsUpThenDrains() {
    for (int remaining = 2; remaining >= 0; remaining--) {
      Answer allowed = f.check("lb", "k");
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.header("RateLimit-Policy")).isEqualTo("\"lb\";q=3;w=3");
      assertThat(allowed.header("RateLimit")).isEqualTo("\"lb\";r=" + remaining + ";t=0");
    }
    assertThat(f.state("rl:lb:k")).isEqualTo("32|3|" + T0);

    Answer denied = f.check("lb", "k");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit")).isEqualTo("\"lb\";r=0;t=1");
    assertThat(denied.header("Retry-After")).isEqualTo("1");

    f.advance(Duration.ofMillis(2_500));
    Answer drained = f.check("lb", "k");
    assertThat(drained.status()).isEqualTo(200);
    assertThat(drained.header("RateLimit")).isEqualTo("\"lb\";r=2;t=0");
    assertThat(f.state("rl:lb:k")).isEqualTo("32|1.5|" + (T0 + 2_500_000_000L));
  }

  @Test
  void gcraSpacesRequestsAfterItsBurst() {
    // B 3, r 5: T = 200 ms, tau = 600 ms; spec §9.2.
    String[] limits = {"\"gcra\";r=2;t=1", "\"gcra\";r=1;t=1", "\"gcra\";r=0;t=2"};
    for (String limit : limits) {
      Answer allowed = f.check("gcra", "k");
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.header("RateLimit-Policy")).isEqualTo("\"gcra\";q=3;w=1");
      assertThat(allowed.header("RateLimit")).isEqualTo(limit);
    }
    assertThat(f.state("rl:gcra:k")).isEqualTo("42|" + (T0 + 600_000_000L));

    Answer denied = f.check("gcra", "k");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit")).isEqualTo("\"gcra\";r=0;t=1");
    assertThat(denied.header("Retry-After")).as("200 ms, rounded up").isEqualTo("1");

    f.advance(Duration.ofMillis(200));
    assertThat(f.check("gcra", "k").status()).isEqualTo(200);
    assertThat(f.state("rl:gcra:k")).isEqualTo("42|" + (T0 + 800_000_000L));
  }

  @Test
  void compositeNeedsBothSidesAndStoresThemInOneRecord() {
    // Fixed window 2/10 s + token bucket B 1, r 0.1; spec §9.2's dual vector.
    Answer allowed = f.check("both", "u");
    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.header("RateLimit-Policy"))
        .isEqualTo("\"both:primary_default\";q=2;w=10, \"both:secondary_default\";q=1;w=10");
    assertThat(allowed.header("RateLimit"))
        .isEqualTo("\"both:primary_default\";r=1;t=10, \"both:secondary_default\";r=0;t=0");
    assertThat(allowed.body()).isEqualTo("{\"allowed\":true,\"limit\":1,\"remaining\":0,\"reset\":0,\"retry_after\":0}");
    assertThat(f.state("rl:both:u")).isEqualTo("51|23|1|default|1|" + T0 + "$12|0|" + T0);

    Answer denied = f.check("both", "u");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit"))
        .isEqualTo("\"both:primary_default\";r=1;t=10, \"both:secondary_default\";r=0;t=0");
    assertThat(denied.header("Retry-After")).as("one token at 0.1/s").isEqualTo("10");
    assertThat(f.state("rl:both:u")).as("the primary's unit is not consumed").isEqualTo("51|23|1|default|1|" + T0 + "$12|0|" + T0);

    f.advance(Duration.ofSeconds(10));
    assertThat(f.check("both", "u").status()).isEqualTo(200);
    long t10 = T0 + 10_000_000_000L;
    assertThat(f.state("rl:both:u")).isEqualTo("51|23|1|default|1|" + t10 + "$12|0|" + t10);
  }

  @Test
  void decayingRateDeniesOnceTheAverageReachesTheLimit() {
    Answer first = f.check("decay", "k");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("RateLimit-Policy")).isEqualTo("\"decay\";q=2;w=10");
    assertThat(first.header("RateLimit")).isEqualTo("\"decay\";r=1;t=0");
    assertThat(f.state("rl:decay:k")).isEqualTo("61|0|" + T0);

    Answer second = f.check("decay", "k");
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.header("RateLimit")).isEqualTo("\"decay\";r=0;t=0");
    assertThat(f.state("rl:decay:k")).isEqualTo("61|1.000000082740371|" + T0);

    Answer denied = f.check("decay", "k");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit")).isEqualTo("\"decay\";r=0;t=1");
    assertThat(denied.header("Retry-After")).isEqualTo("1");
    assertThat(f.state("rl:decay:k")).as("not strict: a denial is not recorded").isEqualTo("61|1.000000082740371|" + T0);
  }
}
