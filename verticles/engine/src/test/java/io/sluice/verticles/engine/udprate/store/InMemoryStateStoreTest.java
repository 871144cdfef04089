package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.UdpState;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InMemoryStateStoreTest {

  private final AtomicLong nowMillis = new AtomicLong(1_000);
  private final InMemoryStateStore store = new InMemoryStateStore(nowMillis::get);

  private static StateTransition<UdpState> storing(UdpState state, long ttlMillis) {
    return current -> StateTransition.Outcome.store(state, ttlMillis, current);
  }

  private static StateTransition<UdpState> reading() {
    return current -> StateTransition.Outcome.leaveUnchanged(current);
  }

  @Test
  void storesAndReadsBackAndReportsTheTransitionsResult() {
    RateState state = new RateState(1, 2);
    assertThat(store.update("k", storing(state, 10_000))).as("absent before").isNull();
    assertThat(store.update("k", reading())).isEqualTo(state);
    assertThat(store.get("k")).isEqualTo(state);
    assertThat(store.size()).isEqualTo(1);
  }

  @Test
  void leavingUnchangedKeepsStateAndExpiry() {
    store.update("k", storing(new RateState(1, 2), 100));
    nowMillis.addAndGet(99);
    store.update("k", reading());
    nowMillis.addAndGet(1);
    assertThat(store.get("k")).as("an unchanged state does not get a new TTL").isNull();
    assertThat(store.update("absent", reading())).isNull();
    assertThat(store.size()).isZero();
  }

  @Test
  void expiredStateReadsAsAbsentAndIsPurged() {
    store.update("k", storing(new RateState(1, 2), 50));
    nowMillis.addAndGet(50);
    assertThat(store.update("k", reading())).isNull();
    store.update("other", storing(new RateState(3, 4), 50));
    assertThat(store.size()).isEqualTo(1);
  }

  @Test
  void aThrowingTransitionChangesNothing() {
    store.update("k", storing(new RateState(1, 2), 10_000));
    assertThatThrownBy(() -> store.update("k", current -> {
      throw new IllegalStateException("boom");
    })).isInstanceOf(IllegalStateException.class);
    assertThat(store.get("k")).isEqualTo(new RateState(1, 2));
  }

  @Test
  void updatesOfOneKeyAreAtomic() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      CompletableFuture<?>[] all = new CompletableFuture<?>[4];
      for (int t = 0; t < all.length; t++) {
        all[t] = CompletableFuture.runAsync(() -> {
          for (int i = 0; i < 10_000; i++) {
            store.update("counter", current -> StateTransition.Outcome.store(
                new RateState(0, current == null ? 1 : ((RateState) current).rate() + 1), 60_000, null));
          }
        }, threads);
      }
      CompletableFuture.allOf(all).get(30, TimeUnit.SECONDS);
    } finally {
      threads.shutdownNow();
    }
    assertThat(store.get("counter")).isEqualTo(new RateState(0, 40_000));
  }

  @Test
  void outcomeGuardsItsTtl() {
    assertThatThrownBy(() -> StateTransition.Outcome.store(new RateState(0, 0), 0, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(StateTransition.Outcome.leaveUnchanged("r").leavesStateUnchanged()).isTrue();
  }

  @Test
  void asyncAdapterCompletesAtOnceAndCarriesFailures() {
    AsyncStateStore async = AsyncStateStore.completedFrom(store);
    RateState state = new RateState(5, 6);
    assertThat(async.update("k", storing(state, 1_000)).toCompletableFuture()).isCompletedWithValue(null);
    assertThat(async.size().toCompletableFuture()).isCompletedWithValue(1L);
    assertThat(async.update("k", current -> {
      throw new IllegalStateException("boom");
    }).toCompletableFuture()).isCompletedExceptionally();
  }
}
