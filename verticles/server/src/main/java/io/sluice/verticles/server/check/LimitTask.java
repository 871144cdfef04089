package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Strategy;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;

/**
 * One check, peek or reset of one key, run on the shard that owns the key. The shard runs its tasks
 * one at a time on its own thread, so read, decide and write are atomic per key without any
 * compare-and-set loop: concurrent checks of a key can never both take the last unit.
 *
 * <p>The state is the strategy's compact ASCII format, stored byte for byte as the key's buffer
 * record. A record that does not decode (or a Throttr counter under the key) fails the task; it is
 * never treated as absent, which would silently reset the limit. The task answers itself: its
 * decision, the shard's time, whether a reset removed something.
 */
final class LimitTask extends ResultTask<LimitTask> {

  private enum Kind { ALLOW, PEEK, RESET }

  private final Kind kind;
  private final Strategy strategy;
  private final long cost;

  // Written on the shard, read back on the front's loop after the batch returns.
  private long nowNs;
  private Decision decision;
  private boolean removed;

  private LimitTask(Kind kind, byte[] key, Strategy strategy, long cost) {
    super(key);
    this.kind = kind;
    this.strategy = strategy;
    this.cost = cost;
  }

  static LimitTask allow(byte[] key, Strategy strategy, long cost) {
    return new LimitTask(Kind.ALLOW, key, strategy, cost);
  }

  static LimitTask peek(byte[] key, Strategy strategy) {
    return new LimitTask(Kind.PEEK, key, strategy, 1);
  }

  static LimitTask reset(byte[] key) {
    return new LimitTask(Kind.RESET, key, null, 0);
  }

  /** Refuses with a 500 {@link ApiError} naming the record when the stored state does not decode. */
  @Override
  protected LimitTask compute(KeyState state, long nowNanos) {
    nowNs = nowNanos;
    if (kind == Kind.RESET) {
      removed = state.value() != null || state.isCounter();
      state.remove();
      return this;
    }
    if (state.isCounter()) {
      return refuse(storedStateError("holds a Throttr counter, not a rate-limit state", null));
    }
    byte[] value = state.value();
    // ISO-8859-1 maps bytes to chars one to one: a stray non-ASCII byte stays visible and fails decoding.
    String stored = value == null ? null : new String(value, StandardCharsets.ISO_8859_1);
    try {
      if (kind == Kind.PEEK) {
        decision = strategy.peek(stored, nowNanos);
        return this;
      }
      Outcome outcome = strategy.allow(stored, nowNanos, cost);
      if (outcome.changed()) {
        state.put(outcome.newState().getBytes(StandardCharsets.US_ASCII), saturatedNanos(outcome));
      }
      decision = outcome.decision();
      return this;
    } catch (MalformedStateException malformed) {
      return refuse(storedStateError("is malformed: " + malformed.getMessage(), malformed.state()));
    }
  }

  private ApiError storedStateError(String problem, String stored) {
    String recordKey = new String(key(), StandardCharsets.UTF_8);
    JsonObject details = new JsonObject().put("record", recordKey);
    if (stored != null) {
      details.put("state", stored);
    }
    return new ApiError(500, "the state record " + recordKey + " " + problem
        + "; it is left as it is until it expires or is reset (DELETE /v1/limits/…)", details);
  }

  /** A TTL beyond 292 years (a 100-year window × 5) saturates instead of overflowing. */
  private static long saturatedNanos(Outcome outcome) {
    try {
      return outcome.ttl().toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  /** The shard's clock when the task ran: what reset and retry-after seconds are counted from. */
  long nowNs() {
    return nowNs;
  }

  /** The decision of a check or peek; null for a reset or a failure. */
  Decision decision() {
    return decision;
  }

  /** Whether a reset found a record to remove. */
  boolean removed() {
    return removed;
  }
}
