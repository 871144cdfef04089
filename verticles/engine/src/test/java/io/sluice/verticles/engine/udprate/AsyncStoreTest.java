package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.udprate.store.AsyncStateStore;
import io.sluice.verticles.engine.udprate.store.InMemoryStateStore;
import io.sluice.verticles.engine.udprate.store.StateTransition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine over a store that completes later, as storage shards do. */
class AsyncStoreTest {

  /** Queues every operation until {@link #runPending()}; runs them in order, like a shard's queue. */
  private static final class DeferredStore implements AsyncStateStore {
    final InMemoryStateStore backing;
    final Queue<Runnable> pending = new ArrayDeque<>();
    boolean failing;

    DeferredStore(ManualClock clock) {
      this.backing = new InMemoryStateStore(EngineHarness.millisOf(clock));
    }

    @Override
    public <R> CompletionStage<R> update(String key, StateTransition<R> transition) {
      CompletableFuture<R> result = new CompletableFuture<>();
      pending.add(() -> {
        if (failing) {
          result.completeExceptionally(new IllegalStateException("shard unavailable"));
        } else {
          result.complete(backing.update(key, transition));
        }
      });
      return result;
    }

    @Override
    public CompletionStage<Long> size() {
      CompletableFuture<Long> result = new CompletableFuture<>();
      pending.add(() -> result.complete(backing.size()));
      return result;
    }

    int runPending() {
      int ran = 0;
      while (!pending.isEmpty()) {
        pending.poll().run();
        ran++;
      }
      return ran;
    }
  }

  private final ManualClock clock = new ManualClock(Duration.ofSeconds(EngineHarness.T0).toNanos());
  private final DeferredStore store = new DeferredStore(clock);
  private final java.util.List<Throwable> failures = new java.util.ArrayList<>();
  private final UdpEngine engine = UdpEngine.builder(MusicBrainzRulesFile.load(), store).clock(clock)
      .listener(new UdpEngineListener() {
        @Override
        public void requestFailed(Throwable failure) {
          failures.add(failure);
        }
      }).build();

  private CompletableFuture<Optional<String>> send(String request) {
    return engine.handleAsync(request.getBytes(StandardCharsets.ISO_8859_1)).toCompletableFuture();
  }

  @Test
  void repliesWaitForTheStore() {
    CompletableFuture<Optional<String>> reply = send("1 over_limit ws ip=1.2.3.4");
    assertThat(reply).isNotDone();
    assertThat(store.runPending()).isEqualTo(1);
    assertThat(reply).isCompletedWithValue(Optional.of("1 ok N 0.0 22.0 20"));
    assertThat(engine.answersImmediately()).isFalse();
  }

  @Test
  void commandsWithoutStateAnswerAtOnce() {
    assertThat(send("ping")).isCompletedWithValue(Optional.of("pong"));
    assertThat(send("get_stats ws global")).isCompletedWithValue(Optional.of("n_req=0 n_over=0 last_max_rate=0 key=ws global"));
    assertThat(send("over_limit nothing matches")).isCompletedWithValue(Optional.of("ok N 0.0 1.0 1"));
    assertThat(send("bogus")).isCompletedWithValue(Optional.empty());
  }

  @Test
  void checkLimitEvaluatesItsKeysOneAfterTheOther() {
    CompletableFuture<Optional<String>> reply = send("check_limit {\"origin\":\"ws\",\"ip\":\"1.2.3.4\",\"ua\":\"-\"}");
    assertThat(store.pending).as("only the ua key is in flight").hasSize(1);
    store.pending.poll().run();
    assertThat(store.pending).as("then the ip key").hasSize(1);
    store.runPending();
    assertThat(reply.join().orElseThrow()).startsWith("ok N 0.0 2500.0 10, ");
    CompletableFuture<Optional<String>> size = send("get_size");
    store.runPending();
    assertThat(size).isCompletedWithValue(Optional.of("size=3 keys=3"));
  }

  @Test
  void statsOnlyUsesPrecedeTheRequestsOwnUse() {
    CompletableFuture<Optional<String>> reply = send("over_limit ws ua=python-headphones/0.7.3");
    assertThat(store.runPending()).isEqualTo(2);
    assertThat(reply.join()).contains("ok N 0.0 300.0 10");
    assertThat(store.backing.get("ws ua=python-headphones/0.7.3")).isNotNull();
    assertThat(store.backing.get("ws headphones")).isNotNull();
  }

  @Test
  void aFailingStoreGivesNoReplyAndIsReported() {
    store.failing = true;
    CompletableFuture<Optional<String>> reply = send("7 over_limit ws ip=1.2.3.4");
    store.runPending();
    assertThat(reply).isCompletedWithValue(Optional.empty());
    assertThat(failures).singleElement().satisfies(failure ->
        assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("shard unavailable"));
  }

  @Test
  void aFailingSynchronousStoreGivesNoReplyToo() {
    ManualClock clock = new ManualClock(Duration.ofSeconds(EngineHarness.T0).toNanos());
    java.util.List<Throwable> seen = new java.util.ArrayList<>();
    io.sluice.verticles.engine.udprate.store.StateStore broken = new io.sluice.verticles.engine.udprate.store.StateStore() {
      @Override
      public <R> R update(String key, StateTransition<R> transition) {
        throw new IllegalStateException("broken");
      }

      @Override
      public long size() {
        throw new IllegalStateException("broken");
      }
    };
    UdpEngine engine = UdpEngine.builder(RuleSet.singleRule(Rule.forAnyKey(1, 1, true)), broken)
        .clock(clock).listener(new UdpEngineListener() {
          @Override
          public void requestFailed(Throwable failure) {
            seen.add(failure);
          }
        }).build();
    assertThat(engine.answersImmediately()).isTrue();
    assertThat(engine.handle("over_limit k".getBytes(StandardCharsets.ISO_8859_1))).isEmpty();
    assertThat(engine.handle("get_size".getBytes(StandardCharsets.ISO_8859_1))).isEmpty();
    assertThat(engine.handle("ping".getBytes(StandardCharsets.ISO_8859_1))).contains("pong");
    assertThat(seen).hasSize(2);
  }
}
