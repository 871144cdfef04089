package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.Composite;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls;
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
 * Eight clients, each on its own connections, check the same key of a composite at once. The HTTP
 * front runs two instances on two event loops and the key's shard is on yet another: the check is
 * atomic only because it runs as one task on the owning shard. Exactly the limit is granted, and
 * both sides of the stored state count exactly the granted requests.
 */
class CompositeConcurrencyTest {

  private static final int CLIENTS = 8;
  private static final int REQUESTS_EACH = 6;

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("login", new Composite(
          new FixedWindow(WindowPolicy.of(new Quota("default", 20, Duration.ofMinutes(1)))),
          new TokenBucket(new BucketPolicy(7, 0.001))))));

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void concurrentClientsAreGrantedExactlyTheLimit() {
    List<HttpCalls> clients = new ArrayList<>();
    List<Future<HttpCalls.Answer>> answers = new ArrayList<>();
    try {
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(new HttpCalls(f.vertx, f.sut.httpPort()));
      }
      for (int i = 0; i < REQUESTS_EACH; i++) {
        for (HttpCalls client : clients) {
          answers.add(client.sendAsync(HttpMethod.POST, "/v1/check", "{\"policy\":\"login\",\"key\":\"victim\"}"));
        }
      }
      await(Future.all(answers));
    } finally {
      clients.forEach(HttpCalls::close);
    }
    long allowed = answers.stream().filter(a -> a.result().status() == 200).count();
    long denied = answers.stream().filter(a -> a.result().status() == 429).count();
    assertThat(allowed).isEqualTo(7);
    assertThat(denied).isEqualTo(CLIENTS * REQUESTS_EACH - 7);
    // The primary counted only what was granted: no side is consumed without the other.
    assertThat(f.state("rl:login:victim")).isEqualTo("51|23|1|default|7|" + T0 + "$12|0|" + T0);
  }
}
