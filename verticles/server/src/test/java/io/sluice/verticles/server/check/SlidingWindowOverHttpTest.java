package io.sluice.verticles.server.check;

import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.check.CheckFixture.T0;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sliding window over real HTTP: 16 clients at once are granted exactly the limit, the denial
 * tells the exact wait, and in the next window the previous one still weighs what is left of it.
 */
class SlidingWindowOverHttpTest {

  private static final int CLIENTS = 16;

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("sw", new SlidingWindow(new Quota("default", 10, Duration.ofSeconds(10))))));

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void sixteenClientsGetExactlyTheLimitAndThePreviousWindowWeighsLess() {
    f.advance(Duration.ofSeconds(6));
    assertThat(allowedOf(checkAtOnce(2))).isEqualTo(10);
    assertThat(f.state("rl:sw:k")).isEqualTo("71|0|10|" + T0);

    HttpCalls.Answer denied = f.check("sw", "k");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("RateLimit-Policy")).isEqualTo("\"sw\";q=10;w=10");
    assertThat(denied.header("RateLimit")).isEqualTo("\"sw\";r=0;t=4");
    // 10 × (1 − elapsed/10) + 1 ≤ 10 from 1 s into the next window: 5 s from now.
    assertThat(denied.header("Retry-After")).isEqualTo("5");

    f.advance(Duration.ofSeconds(6));
    // 12 s: 80 % of the previous window's 10 still counts, so 2 more fit.
    assertThat(allowedOf(checkAtOnce(1))).isEqualTo(2);
    assertThat(f.state("rl:sw:k")).isEqualTo("71|10|2|" + (T0 + 10_000_000_000L));
    assertThat(f.check("sw", "k").header("Retry-After")).isEqualTo("1");
  }

  /** {@code each} checks of the key from each of 16 clients, on their own connections, all sent at once. */
  private List<Future<HttpCalls.Answer>> checkAtOnce(int each) {
    List<HttpCalls> clients = new ArrayList<>();
    List<Future<HttpCalls.Answer>> answers = new ArrayList<>();
    try {
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(new HttpCalls(f.vertx, f.sut.httpPort()));
      }
      for (int i = 0; i < each; i++) {
        for (HttpCalls client : clients) {
          answers.add(client.sendAsync(HttpMethod.POST, "/v1/check", "{\"policy\":\"sw\",\"key\":\"k\"}"));
        }
      }
      await(Future.all(answers));
    } finally {
      clients.forEach(HttpCalls::close);
    }
    return answers;
  }

  private static long allowedOf(List<Future<HttpCalls.Answer>> answers) {
    assertThat(answers).allSatisfy(a -> assertThat(a.result().status()).isIn(200, 429));
    return answers.stream().filter(a -> a.result().status() == 200).count();
  }
}
