package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardTask;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request's descriptors reach their shards as one batch per route, whatever their number, and
 * the round ends once, with the counts in request order or with the first failure.
 */
class CountingRoundTest {

  private static final long NOW = 1_767_225_600_000_000_000L;
  private static final RateLimit TEN_PER_SECOND = RateLimit.configured("", 10, WindowUnit.SECOND, false, List.of(),
      false, false, "user", false, null);

  @Test
  void descriptorsOfOneRouteTravelAsOneBatch() {
    Shards shards = new Shards(2);
    RateLimitRequest request = request(8);
    Outcome first = count(shards, request, TEN_PER_SECOND, 1);

    assertThat(shards.batches).hasSizeLessThanOrEqualTo(2);
    assertThat(shards.batches.stream().mapToInt(ShardBatch::size).sum()).isEqualTo(8);
    for (ShardBatch batch : shards.batches) {
      for (int slot = 0; slot < batch.size(); slot++) {
        assertThat(shards.routeOf(((ShardTask) batch.entry(slot)).key())).isEqualTo(batch.route());
      }
    }
    assertThat(first.counts).extracting(Algorithm.Count::after).containsOnly(1L);

    Outcome second = count(shards, request, TEN_PER_SECOND, 3);
    assertThat(second.counts).extracting(Algorithm.Count::after).containsOnly(4L);
    assertThat(shards.batches).hasSizeLessThanOrEqualTo(4);
  }

  @Test
  void descriptorsWithoutACounterSendNothing() {
    Shards shards = new Shards(2);
    Outcome outcome = count(shards, request(3), null, 1);

    assertThat(shards.batches).isEmpty();
    assertThat(outcome.counts).containsOnlyNulls().hasSize(3);
  }

  @Test
  void aShardOutOfReachFailsTheRoundOnce() {
    Shards shards = new Shards(2);
    shards.unreachable = new IllegalStateException("stopped");
    Outcome outcome = count(shards, request(8), TEN_PER_SECOND, 1);

    assertThat(outcome.failures).containsExactly(shards.unreachable);
    assertThat(outcome.counts).isNull();
  }

  @Test
  void aTaskRefusedOnItsShardFailsTheRound() {
    Shards shards = new Shards(1);
    shards.counters = true;
    Outcome outcome = count(shards, request(2), TEN_PER_SECOND, 1);

    assertThat(outcome.failures).singleElement().asString().contains("is a Throttr counter");
    assertThat(outcome.counts).isNull();
  }

  private static Outcome count(Shards shards, RateLimitRequest request, RateLimit limit, long hits) {
    int n = request.getDescriptorsCount();
    RateLimit[] limits = new RateLimit[n];
    long[] each = new long[n];
    for (int i = 0; i < n; i++) {
      limits[i] = limit;
      each[i] = hits;
    }
    Outcome outcome = new Outcome();
    CountingRound.count(shards, OverLimitCache.off(), request, limits, each, NOW, outcome);
    return outcome;
  }

  private static RateLimitRequest request(int descriptors) {
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder().setDomain("d");
    for (int i = 0; i < descriptors; i++) {
      request.addDescriptors(RateLimitDescriptor.newBuilder()
          .addEntries(RateLimitDescriptor.Entry.newBuilder().setKey("user").setValue("u" + i)));
    }
    return request.build();
  }

  /** How a round ended: it must end exactly once. */
  private static final class Outcome implements CountingRound.Counted {
    Algorithm.Count[] counts;
    final List<Throwable> failures = new ArrayList<>();

    @Override
    public void counted(Algorithm.Count[] counts) {
      assertThat(this.counts).isNull();
      assertThat(failures).isEmpty();
      this.counts = counts;
    }

    @Override
    public void failed(Throwable failure) {
      assertThat(counts).isNull();
      failures.add(failure);
    }
  }

  /** Shards on the caller's thread, as a front's own shard is: each batch runs and comes back at once. */
  private static final class Shards implements ShardRouter {
    private final int routes;
    private final Map<ByteBuffer, byte[]> records = new HashMap<>();
    final List<ShardBatch> batches = new ArrayList<>();
    Throwable unreachable;
    boolean counters;

    Shards(int routes) {
      this.routes = routes;
    }

    @Override
    public int routes() {
      return routes;
    }

    @Override
    public void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
      batches.add(batch);
      if (unreachable != null) {
        failed.accept(unreachable);
        return;
      }
      for (int slot = 0; slot < batch.size(); slot++) {
        ShardTask task = (ShardTask) batch.entry(slot);
        task.run(state(ByteBuffer.wrap(task.key())), NOW);
      }
      done.accept(batch);
    }

    private KeyState state(ByteBuffer key) {
      return new KeyState() {
        @Override
        public byte[] value() {
          return records.get(key);
        }

        @Override
        public boolean isCounter() {
          return counters;
        }

        @Override
        public boolean put(byte[] value, long ttlNanos) {
          records.put(key, value);
          return true;
        }

        @Override
        public void remove() {
          records.remove(key);
        }
      };
    }
  }
}
