package io.sluice.verticles.rls;

import io.sluice.verticles.engine.shard.KeyState;
import io.sluice.verticles.engine.shard.ResultTask;
import io.sluice.verticles.engine.shard.StrategyRecord;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;

import java.nio.charset.StandardCharsets;

/**
 * Decides a descriptor's hits with its {@link StrategyAlgorithm} on the shard that owns its
 * record: read, decide and write are atomic per key, as the shard runs its tasks one at a time, so
 * concurrent requests can never both take the last unit. Hits of 0 only look. A record that is not
 * the strategy's state fails the request; it is never taken for a fresh key. A full shard that
 * refuses the new state leaves the decision standing (the check API's {@code on-full: allow}).
 */
final class StrategyTask extends ResultTask<Algorithm.Count> implements CountTask {

  private final StrategyAlgorithm algorithm;
  private final long hits;

  StrategyTask(byte[] key, StrategyAlgorithm algorithm, long hits) {
    super(key);
    this.algorithm = algorithm;
    this.hits = hits;
  }

  StrategyAlgorithm algorithm() {
    return algorithm;
  }

  long hits() {
    return hits;
  }

  @Override
  public Algorithm.Count count() {
    return result();
  }

  @Override
  protected Algorithm.Count compute(KeyState state, long nowNanos) {
    if (state.isCounter()) {
      return refuse(new IllegalStateException("the record " + recordKey() + " is a Throttr counter, not a "
          + algorithm.name() + " state"));
    }
    String stored = StrategyRecord.read(state);
    try {
      Decision decision;
      if (hits == 0) {
        decision = algorithm.strategy().peek(stored, nowNanos);
      } else {
        Outcome outcome = algorithm.strategy().allow(stored, nowNanos, hits);
        decision = outcome.decision();
        StrategyRecord.store(state, outcome);
      }
      return algorithm.countOf(decision, hits, nowNanos);
    } catch (MalformedStateException malformed) {
      return refuse(new IllegalStateException("the record " + recordKey() + " holds '" + stored + "', not a "
          + algorithm.name() + " state; it is left as it is until it expires"));
    }
  }

  private String recordKey() {
    return new String(key(), StandardCharsets.UTF_8);
  }
}
