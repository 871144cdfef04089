package io.sluice.verticles.server.udp;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardScan;
import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.udprate.rate.RateEvaluation;
import io.sluice.verticles.engine.udprate.rate.StoredRate;
import io.sluice.verticles.engine.udprate.rate.StoredState;
import io.sluice.verticles.engine.udprate.store.AsyncStateStore;
import io.sluice.verticles.engine.udprate.store.RateUse;
import io.sluice.verticles.engine.udprate.store.StateTransition;
import io.sluice.verticles.engine.udprate.store.WindowUse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * UDP rate state kept in the storage shards like every other record: each key's state is the
 * buffer record {@code udp:<key>}, updated atomically on the shard that owns it, expiring when
 * unused (the TTL the engine asks for), and visible to a Throttr GET as the 18 bytes of
 * {@link StoredRate}. Completions arrive on the UDP verticle's event loop.
 */
final class ShardRateStore implements AsyncStateStore {

  static final byte[] NAMESPACE = "udp:".getBytes(StandardCharsets.US_ASCII);

  private final ShardRouter router;

  ShardRateStore(ShardRouter router) {
    this.router = router;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R> CompletionStage<R> update(String key, StateTransition<R> transition) {
    byte[] recordKey = recordKey(key);
    // A rate or window use is data, so it runs on the key's owner wherever that is; R is its RateEvaluation.
    ResultTask<R> task;
    if (transition instanceof RateUse use) {
      task = (ResultTask<R>) new RateUpdate(recordKey, use);
    } else if (transition instanceof WindowUse use) {
      task = (ResultTask<R>) new WindowUpdate(recordKey, use);
    } else {
      task = new Update<>(recordKey, transition);
    }
    return router.call(task);
  }

  /** Counts live {@code udp:} records on every shard (get_size is a monitoring command: a scan is fine). */
  @Override
  public CompletionStage<Long> size() {
    List<Count> counts = new ArrayList<>(router.routes());
    return router.onEveryShard(shard -> {
      Count count = new Count();
      counts.add(count); // onEveryShard asks for every batch before it sends any
      ShardBatch batch = new ShardBatch(shard);
      batch.add(count);
      return batch;
    }).thenApply(batches -> {
      for (ShardBatch batch : batches) {
        if (batch.firstFailure() != null) {
          throw new CompletionException(batch.firstFailure());
        }
      }
      long total = 0;
      for (Count count : counts) {
        total += count.records();
      }
      return total;
    });
  }

  private static byte[] recordKey(String key) {
    // UDP keys are byte strings held one char per byte (ISO-8859-1), as the engine parses them.
    byte[] bytes = key.getBytes(StandardCharsets.ISO_8859_1);
    byte[] recordKey = Arrays.copyOf(NAMESPACE, NAMESPACE.length + bytes.length);
    System.arraycopy(bytes, 0, recordKey, NAMESPACE.length, bytes.length);
    return recordKey;
  }

  /**
   * Runs on the key's shard: decode, apply the engine's transition, encode. A failure (malformed
   * state, a Throttr counter under the key) is this request's answer, not a bug of the shard.
   */
  static class Update<R> extends ResultTask<R> {
    private final StateTransition<R> transition;

    Update(byte[] key, StateTransition<R> transition) {
      super(key);
      this.transition = transition;
    }

    StateTransition<R> transition() {
      return transition;
    }

    @Override
    protected R compute(KeyState state, long nowNanos) {
      try {
        if (state.isCounter()) {
          throw new IllegalStateException("key " + new String(key(), StandardCharsets.ISO_8859_1) + " holds a Throttr counter");
        }
        byte[] stored = state.value();
        StateTransition.Outcome<R> outcome = transition.apply(stored == null ? null : StoredState.decode(stored));
        boolean kept = outcome.stateToStore() == null
            || state.put(StoredState.encode(outcome.stateToStore()), TimeUnit.MILLISECONDS.toNanos(outcome.ttlMillis()));
        return kept ? outcome.result() : outcome.resultIfRefused();
      } catch (RuntimeException e) {
        return refuse(e);
      }
    }
  }

  /** An {@code over_limit} step: the update that travels to the key's owner ({@link UdpRateCodecs}). */
  static final class RateUpdate extends Update<RateEvaluation> {
    RateUpdate(byte[] key, RateUse use) {
      super(key, use);
    }

    RateUse use() {
      return (RateUse) transition();
    }
  }

  /** A sliding window rule's {@code over_limit} step, travelling like {@link RateUpdate}. */
  static final class WindowUpdate extends Update<RateEvaluation> {
    WindowUpdate(byte[] key, WindowUse use) {
      super(key, use);
    }

    WindowUse use() {
      return (WindowUse) transition();
    }
  }

  /** Counts the {@code udp:} records of a shard; travels to a partition's owner ({@link UdpRateCodecs}). */
  static final class Count implements ShardScan {
    private long records;

    long records() {
      return records;
    }

    void add(long more) {
      records += more;
    }

    @Override
    public void visit(Record record) {
      byte[] key = record.key();
      if (key.length >= NAMESPACE.length && Arrays.equals(key, 0, NAMESPACE.length, NAMESPACE, 0, NAMESPACE.length)) {
        records++;
      }
    }
  }
}
