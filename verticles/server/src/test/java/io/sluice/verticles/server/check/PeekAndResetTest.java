package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.sluice.verticles.server.check.CheckFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** A peek consumes nothing; a reset removes the state record, so the key starts afresh. */
class PeekAndResetTest {

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("fw", new FixedWindow(WindowPolicy.of(new Quota("default", 3, Duration.ofSeconds(10))))),
      new Policy("tb", new TokenBucket(new BucketPolicy(2, 1)))));

  @AfterEach
  void close() {
    f.close();
  }

  private Answer peek(String policy, String key) {
    return f.http.post("/v1/peek", "{\"policy\":\"" + policy + "\",\"key\":\"" + key + "\"}");
  }

  @Test
  void peekingAFreshKeyReportsTheFullLimitAndStoresNothing() {
    for (int i = 0; i < 5; i++) {
      Answer peek = peek("fw", "k");
      assertThat(peek.status()).isEqualTo(200);
      assertThat(peek.header("RateLimit-Policy")).isEqualTo("\"fw\";q=3;w=10");
      assertThat(peek.header("RateLimit")).isEqualTo("\"fw\";r=3;t=10");
      assertThat(peek.body()).isEqualTo("{\"allowed\":true,\"limit\":3,\"remaining\":3,\"reset\":10,\"retry_after\":0}");
    }
    assertThat(f.state("rl:fw:k")).isNull();
    for (int i = 0; i < 3; i++) {
      assertThat(f.check("fw", "k").status()).as("check %d after the peeks", i + 1).isEqualTo(200);
    }
    assertThat(f.check("fw", "k").status()).isEqualTo(429);
  }

  @Test
  void peekDoesNotConsumeAndAnswers200EvenWhenACheckWouldBeDenied() {
    assertThat(f.check("fw", "k").status()).isEqualTo(200);
    String before = f.state("rl:fw:k");
    Answer peek = peek("fw", "k");
    assertThat(peek.header("RateLimit")).isEqualTo("\"fw\";r=2;t=10");
    assertThat(f.state("rl:fw:k")).isEqualTo(before).isEqualTo("23|1|default|1|" + T0);
    f.check("fw", "k");
    f.check("fw", "k");

    Answer exhausted = peek("fw", "k");
    assertThat(exhausted.status()).isEqualTo(200);
    assertThat(exhausted.header("Retry-After")).as("only a 429 carries Retry-After").isNull();
    assertThat(exhausted.body()).isEqualTo("{\"allowed\":false,\"limit\":3,\"remaining\":0,\"reset\":10,\"retry_after\":10}");
  }

  @Test
  void resetRemovesTheRecordAndTheNextCheckStartsFresh() {
    f.check("tb", "user:1");
    f.check("tb", "user:1");
    assertThat(f.check("tb", "user:1").status()).isEqualTo(429);
    assertThat(f.state("rl:tb:user:1")).isEqualTo("12|0|" + T0);

    Answer reset = f.http.send(HttpMethod.DELETE, "/v1/limits/tb/user:1", null);
    assertThat(reset.status()).isEqualTo(200);
    assertThat(reset.json().getMap()).containsEntry("policy", "tb").containsEntry("key", "user:1").containsEntry("removed", true);
    assertThat(f.state("rl:tb:user:1")).isNull();

    Answer fresh = f.check("tb", "user:1");
    assertThat(fresh.status()).isEqualTo(200);
    assertThat(fresh.header("RateLimit")).isEqualTo("\"tb\";r=1;t=0");
  }

  @Test
  void resettingAKeyWithoutStateSaysNothingWasRemoved() {
    Answer reset = f.http.send(HttpMethod.DELETE, "/v1/limits/fw/nobody", null);
    assertThat(reset.status()).isEqualTo(200);
    assertThat(reset.json().getBoolean("removed")).isFalse();
  }

  @Test
  void resetTakesAPercentEncodedKeyThatMayContainSlashes() {
    f.check("fw", "a/b c");
    assertThat(f.state("rl:fw:a/b c")).isNotNull();
    Answer reset = f.http.send(HttpMethod.DELETE, "/v1/limits/fw/a/b%20c", null);
    assertThat(reset.json().getString("key")).isEqualTo("a/b c");
    assertThat(reset.json().getBoolean("removed")).isTrue();
    assertThat(f.state("rl:fw:a/b c")).isNull();
  }
}
