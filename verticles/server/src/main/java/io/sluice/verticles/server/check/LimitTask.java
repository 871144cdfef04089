package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ShardTask;
import io.sluice.verticles.engine.shard.StrategyRecord;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.policy.OnFull;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;

/**
 * One check, peek or reset of one key, run on the shard that owns the key. The shard runs its tasks
 * one at a time on its own thread, so read, decide and write are atomic per key without any
 * compare-and-set loop: concurrent checks of a key can never both take the last unit.
 *
 * <p>The state is the strategy's compact ASCII format, stored byte for byte as the key's buffer
 * record. A record that does not decode (or a Throttr counter under the key) fails the task; it is
 * never treated as absent, which would silently reset the limit.
 */
final class LimitTask implements ShardTask {

  enum Kind { ALLOW, PEEK, RESET }

  /** What a policy that fails closed tells the client to wait when the store was full. */
  static final long FULL_RETRY_AFTER_NANOS = 1_000_000_000L;

  private final Kind kind;
  private final byte[] key;
  private final Strategy strategy;
  private final long cost;
  private final OnFull onFull;

  // Written on the shard, read back on the front's loop after the batch returns.
  private long nowNs;
  private Decision decision;
  private boolean removed;
  private ApiError failure;

  LimitTask(Kind kind, byte[] key, Strategy strategy, long cost, OnFull onFull) {
    this.kind = kind;
    this.key = key;
    this.strategy = strategy;
    this.cost = cost;
    this.onFull = onFull;
  }

  /** @param onFull the answer when the shard is full and refuses to store the new state */
  static LimitTask allow(byte[] key, Strategy strategy, long cost, OnFull onFull) {
    return new LimitTask(Kind.ALLOW, key, strategy, cost, onFull);
  }

  static LimitTask peek(byte[] key, Strategy strategy) {
    return new LimitTask(Kind.PEEK, key, strategy, 1, OnFull.ALLOW);
  }

  static LimitTask reset(byte[] key) {
    return new LimitTask(Kind.RESET, key, null, 0, OnFull.ALLOW);
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public void run(KeyState state, long nowNanos) {
    nowNs = nowNanos;
    if (kind == Kind.RESET) {
      removed = state.value() != null || state.isCounter();
      state.remove();
      return;
    }
    if (state.isCounter()) {
      failure = storedStateError("holds a Throttr counter, not a rate-limit state", null);
      return;
    }
    String stored = StrategyRecord.read(state);
    try {
      if (kind == Kind.PEEK) {
        decision = strategy.peek(stored, nowNanos);
        return;
      }
      Outcome outcome = strategy.allow(stored, nowNanos, cost);
      decision = outcome.decision();
      if (!StrategyRecord.store(state, outcome)) {
        // The shard is full (--eviction reject): the strategy's answer stands as if the state
        // had been stored (fail open), or every limit denies (fail closed).
        if (onFull == OnFull.DENY) {
          decision = decision.deniedFor(FULL_RETRY_AFTER_NANOS);
        }
      }
    } catch (MalformedStateException malformed) {
      failure = storedStateError("is malformed: " + malformed.getMessage(), malformed.state());
    }
  }

  /** A bug in a strategy, caught and logged by the shard: this request alone answers 500. */
  @Override
  public void failed(Throwable error) {
    failure = new ApiError(500, "rate-limit check failed: " + error, null);
  }

  private ApiError storedStateError(String problem, String stored) {
    String recordKey = new String(key, StandardCharsets.UTF_8);
    JsonObject details = new JsonObject().put("record", recordKey);
    if (stored != null) {
      details.put("state", stored);
    }
    return new ApiError(500, "the state record " + recordKey + " " + problem
        + "; it is left as it is until it expires or is reset (DELETE /v1/limits/…)", details, "malformed_state");
  }

  Kind kind() {
    return kind;
  }

  Strategy strategy() {
    return strategy;
  }

  long cost() {
    return cost;
  }

  /** Takes the result of this task run on the key's owner on another node. */
  void ranElsewhere(long nowNs, Decision decision, boolean removed, ApiError failure) {
    this.nowNs = nowNs;
    this.decision = decision;
    this.removed = removed;
    this.failure = failure;
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

  /** Why the task failed, or null. */
  ApiError failure() {
    return failure;
  }
}
