package io.sluice.verticles.engine.routing;

import io.sluice.verticles.engine.shard.BatchSplit;
import io.sluice.verticles.engine.shard.ShardBatch;

import java.util.List;
import java.util.function.Consumer;

/**
 * Sends each part of a {@link BatchSplit} its way and answers the whole, joined, once every part
 * is back: a router that must split a gathered batch (over several nodes, several shard threads,
 * or again for the entries a gate refused) answers its caller once, as if it had not.
 */
public final class BatchParts {

  /** How a part goes: a router's {@link ShardRouter#dispatch}, or one of its own steps. */
  @FunctionalInterface
  public interface Way {
    void dispatch(ShardBatch part, Consumer<ShardBatch> done, Consumer<Throwable> failed);
  }

  private BatchParts() {
  }

  /**
   * Sends every part through {@code way}; {@code done} gets the joined batch once all are filled,
   * or {@code failed} is told once, at the first part that could not be sent.
   */
  public static void send(BatchSplit split, Way way, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
    List<ShardBatch> parts = List.copyOf(split.toSend());
    int[] left = {parts.size()};
    boolean[] gaveUp = {false};
    for (int i = 0; i < parts.size(); i++) {
      int index = i;
      way.dispatch(parts.get(i), filled -> {
        split.filled(index, filled);
        if (--left[0] == 0 && !gaveUp[0]) {
          done.accept(split.join());
        }
      }, error -> {
        if (!gaveUp[0]) {
          gaveUp[0] = true;
          failed.accept(error);
        }
      });
    }
  }
}
