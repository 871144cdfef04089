package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Requests the API refuses, each with a JSON error that says why; and a stored state that does not decode. */
class CheckErrorsTest {

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("fw", new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofSeconds(10))))),
      new Policy("by-header", new TokenBucket(new BucketPolicy(3, 1)), KeyExtractor.of("header:X-Api-Key"), false)));

  @AfterEach
  void close() {
    f.close();
  }

  private Answer post(String body) {
    return f.http.post("/v1/check", body);
  }

  private static void assertError(Answer answer, int status, String... fragments) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    assertThat(answer.header("Content-Type")).isEqualTo("application/json");
    assertThat(answer.json().getString("error")).contains(fragments);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "not JSON                 | {policy: fw}                                  | must be a JSON object",
      "an array                 | [1, 2]                                        | must be a JSON object",
      "null                     | null                                          | must be a JSON object",
      "no body                  | ``                                            | it is empty",
      "unknown field            | {\"policy\":\"fw\",\"key\":\"k\",\"cots\":2}  | unknown field 'cots'",
      "missing policy           | {\"key\":\"k\"}                               | missing policy",
      "unknown policy           | {\"policy\":\"nope\",\"key\":\"k\"}           | unknown policy 'nope', configured: fw, by-header",
      "policy not a string      | {\"policy\":7,\"key\":\"k\"}                  | 'policy' must be a string",
      "cost 0                   | {\"policy\":\"fw\",\"key\":\"k\",\"cost\":0}  | 'cost' must be at least 1",
      "negative cost            | {\"policy\":\"fw\",\"key\":\"k\",\"cost\":-3} | 'cost' must be at least 1",
      "fractional cost          | {\"policy\":\"fw\",\"key\":\"k\",\"cost\":1.5}| 'cost' must be a whole number from 1 to 5",
      "cost as a string         | {\"policy\":\"fw\",\"key\":\"k\",\"cost\":\"2\"} | 'cost' must be a whole number",
      "cost above the limit     | {\"policy\":\"fw\",\"key\":\"k\",\"cost\":6}  | 'cost' 6 is more than policy 'fw' can ever admit (its smallest limit is 5)",
      "huge cost                | {\"policy\":\"fw\",\"key\":\"k\",\"cost\":99999999999999999999} | can ever admit",
      "missing key              | {\"policy\":\"fw\"}                           | missing key: policy 'fw' takes it from param",
      "empty key                | {\"policy\":\"fw\",\"key\":\"\"}              | 'key' must not be empty",
      "header policy given key  | {\"policy\":\"by-header\",\"key\":\"k\"}      | builds its key from header:X-Api-Key; it takes no explicit 'key'",
      "header policy, no header | {\"policy\":\"by-header\"}                    | missing key: policy 'by-header' takes it from header:X-Api-Key",
  })
  void badRequestsAre400WithAReason(String what, String body, String reason) {
    assertError(post(body), 400, reason.split(", "));
  }

  @Test
  void aKeyWhoseRecordWouldNotFitInAThrottrKeyIs400() {
    String key = "k".repeat(255 - "rl:fw:".length());
    assertThat(f.check("fw", key).status()).isEqualTo(200);
    assertError(f.check("fw", key + "k"), 400, "key too long", "255 bytes");
  }

  @Test
  void aCostWithinTheLimitIsTakenAtOnce() {
    Answer four = post("{\"policy\":\"fw\",\"key\":\"k\",\"cost\":4}");
    assertThat(four.header("RateLimit")).isEqualTo("\"fw\";r=1;t=10");
    assertThat(post("{\"policy\":\"fw\",\"key\":\"k\",\"cost\":2}").status()).isEqualTo(429);
    assertThat(post("{\"policy\":\"fw\",\"key\":\"k\",\"cost\":1}").status()).isEqualTo(200);
  }

  @Test
  void otherMethodsAre405WithAllow() {
    Answer get = f.http.get("/v1/check");
    assertError(get, 405, "GET is not served here; use POST");
    assertThat(get.header("Allow")).isEqualTo("POST");
    assertThat(f.http.send(HttpMethod.GET, "/v1/limits/fw/k", null).header("Allow")).isEqualTo("DELETE");
    assertThat(f.http.send(HttpMethod.PUT, "/v1/peek", "{}").status()).isEqualTo(405);
  }

  @Test
  void aBodyAbove16KibIs413() {
    String big = "{\"policy\":\"fw\",\"key\":\"" + "x".repeat(20_000) + "\"}";
    assertError(post(big), 413, "larger than 16384 bytes");
  }

  @Test
  void peekTakesNoCost() {
    assertError(f.http.post("/v1/peek", "{\"policy\":\"fw\",\"key\":\"k\",\"cost\":1}"), 400, "unknown field 'cost'");
  }

  @Test
  void malformedStateIs500AndIsLeftAsItIs() {
    f.setState("rl:fw:k", "23|1|default|x|5");
    Answer answer = f.check("fw", "k");
    assertError(answer, 500, "the state record rl:fw:k is malformed", "failed to parse fixed_window state");
    assertThat(answer.json().getString("record")).isEqualTo("rl:fw:k");
    assertThat(answer.json().getString("state")).isEqualTo("23|1|default|x|5");
    assertThat(f.state("rl:fw:k")).as("never silently reset").isEqualTo("23|1|default|x|5");
    assertError(f.http.post("/v1/peek", "{\"policy\":\"fw\",\"key\":\"k\"}"), 500, "is malformed");

    assertThat(f.http.send(HttpMethod.DELETE, "/v1/limits/fw/k", null).status()).isEqualTo(200);
    assertThat(f.check("fw", "k").status()).as("a reset clears it").isEqualTo(200);
  }

  @Test
  void aStateOfAnotherStrategyIsMalformedToo() {
    f.setState("rl:fw:k", "12|3|1767225600000000000");
    assertError(f.check("fw", "k"), 500, "is malformed");
  }

  @Test
  void aThrottrCounterUnderTheKeyIs500() {
    await(f.throttr().insert("rl:fw:k", 10, TtlUnit.SECONDS, 60));
    assertError(f.check("fw", "k"), 500, "holds a Throttr counter");
  }
}
