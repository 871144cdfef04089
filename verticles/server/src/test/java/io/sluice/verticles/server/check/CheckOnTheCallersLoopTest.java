package io.sluice.verticles.server.check;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.sluice.verticles.server.kit.Scrapes.value;
import static io.sluice.verticles.server.kit.Scrapes.scrape;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With one event loop (as on one core: {@code --event-loops} defaults to half the processors) every
 * shard lives on the HTTP front's thread, and a check runs its strategy there by a direct call, as a
 * Throttr request does: no check crosses the event bus. The event bus's parcels are counted by
 * {@code sluice_shard_parcel_batches} (an internal series), which stays at zero.
 */
class CheckOnTheCallersLoopTest {

  @Test
  void checksOnEveryShardOfTheOnlyLoopSendNoParcel() {
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    Policies policies = Policies.of(new Policy("tb", new TokenBucket(new BucketPolicy(5, 5)), KeyExtractor.PARAM, false));
    try (SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withPolicies(policies)
        .withShards(2).withFrontInstances(1).withOperator(new OperatorSettings(true, List.of())));
         HttpCalls http = new HttpCalls(vertx, sut.httpPort())) {
      Set<Integer> shards = new HashSet<>();
      for (int i = 0; i < 20; i++) {
        String key = "k" + i;
        shards.add(ShardRouter.routeOf(LimitKey.of("tb", key), 2));
        HttpCalls.Answer answer = http.get("/v1/check/tb?key=" + key);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"allowed\":true,\"limit\":5,\"remaining\":4,\"reset\":0,\"retry_after\":0}");
      }
      assertThat(shards).as("the keys checked live on both shards").containsExactlyInAnyOrder(0, 1);
      assertThat(value(scrape(http), "sluice_shard_parcel_batches_count")).isZero();
    } finally {
      await(vertx.close());
    }
  }
}
