package io.sluice.verticles.server.udp;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardScan;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.udp.rate.RateState;
import io.sluice.verticles.engine.udp.state.AsyncStateStore;
import io.sluice.verticles.engine.udp.state.StateTransition;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * UDP rate state kept in the storage shards like every other record: each key's state is the
 * buffer record {@code udp:<key>}, updated atomically on the shard that owns it, expiring when
 * unused (the TTL the engine asks for), and visible to a Throttr GET as 18 bytes: {@code u2}, then
 * the rate and t_last as IEEE-754 doubles, big-endian. (Decimal text, the first format, cost a
 * tenth of the endpoint's CPU in {@code Double.toString} and {@code parseDouble}.) Completions
 * arrive on the UDP verticle's event loop.
 */
final class ShardRateStore implements AsyncStateStore {

  static final byte[] NAMESPACE = "udp:".getBytes(StandardCharsets.US_ASCII);
  static final int STATE_BYTES = 18;
  private static final byte FORMAT_0 = 'u';
  private static final byte FORMAT_1 = '2';
  private static final VarHandle DOUBLES = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);

  private final ShardRouter router;

  ShardRateStore(ShardRouter router) {
    this.router = router;
  }

  @Override
  public <R> CompletionStage<R> update(String key, StateTransition<R> transition) {
    return router.call(new Update<>(recordKey(key), transition));
  }

  /** Counts live {@code udp:} records on every shard (get_size is a monitoring command: a scan is fine). */
  @Override
  public CompletionStage<Long> size() {
    return router.onEveryShard(shard -> {
      ShardBatch batch = new ShardBatch(shard);
      batch.add(new Count());
      return batch;
    }).thenApply(batches -> {
      long total = 0;
      for (ShardBatch batch : batches) {
        if (batch.firstFailure() != null) {
          throw new CompletionException(batch.firstFailure());
        }
        total += ((Count) batch.entry(0)).records;
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

  static byte[] encode(RateState state) {
    byte[] value = new byte[STATE_BYTES];
    value[0] = FORMAT_0;
    value[1] = FORMAT_1;
    DOUBLES.set(value, 2, state.rate());
    DOUBLES.set(value, 10, state.tLastSeconds());
    return value;
  }

  /** Malformed state is an error, never a silent reset. */
  static RateState decode(byte[] value) {
    if (value.length != STATE_BYTES || value[0] != FORMAT_0 || value[1] != FORMAT_1) {
      throw new IllegalStateException("malformed UDP rate state '" + new String(value, StandardCharsets.ISO_8859_1)
          + "' (expected " + STATE_BYTES + " bytes starting with u2)");
    }
    return new RateState((double) DOUBLES.get(value, 10), (double) DOUBLES.get(value, 2));
  }

  /** Runs on the key's shard: decode, apply the engine's transition, encode. */
  private static final class Update<R> extends ResultTask<R> {
    private final StateTransition<R> transition;

    Update(byte[] key, StateTransition<R> transition) {
      super(key);
      this.transition = transition;
    }

    @Override
    protected R compute(KeyState state, long nowNanos) {
      if (state.isCounter()) {
        return refuse(new IllegalStateException("key " + new String(key(), StandardCharsets.ISO_8859_1) + " holds a Throttr counter"));
      }
      byte[] stored = state.value();
      RateState decoded;
      try {
        decoded = stored == null ? null : decode(stored);
      } catch (IllegalStateException malformed) {
        return refuse(malformed);
      }
      StateTransition.Outcome<R> outcome = transition.apply(decoded);
      if (outcome.stateToStore() != null) {
        state.put(encode(outcome.stateToStore()), TimeUnit.MILLISECONDS.toNanos(outcome.ttlMillis()));
      }
      return outcome.result();
    }
  }

  private static final class Count implements ShardScan {
    private long records;

    @Override
    public void visit(Record record) {
      byte[] key = record.key();
      if (key.length >= NAMESPACE.length && Arrays.equals(key, 0, NAMESPACE.length, NAMESPACE, 0, NAMESPACE.length)) {
        records++;
      }
    }
  }
}
