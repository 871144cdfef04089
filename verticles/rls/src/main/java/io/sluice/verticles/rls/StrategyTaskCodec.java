package io.sluice.verticles.rls;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ResultTaskCodec;

/**
 * A descriptor's strategy step travelling to its record's owner in a cluster: the record's key,
 * the hits and the algorithm with its parameters go (the asking node chose them from its config),
 * the {@link Algorithm.Count} or the refusal comes back.
 */
public final class StrategyTaskCodec extends ResultTaskCodec<Algorithm.Count, StrategyTask> {

  /** Its wire id: fixed, see {@link io.sluice.verticles.engine.shard.TaskCodec#id}. */
  public static final int ID = 3;

  @Override
  public int id() {
    return ID;
  }

  @Override
  public Class<StrategyTask> type() {
    return StrategyTask.class;
  }

  @Override
  public void writeTask(ByteBuf out, StrategyTask task) {
    BatchWire.writeBytes(out, task.key());
    out.writeLongLE(task.hits());
    StrategyAlgorithm algorithm = task.algorithm();
    out.writeByte(algorithm.kind().ordinal());
    out.writeLongLE(algorithm.requests());
    out.writeLongLE(algorithm.windowSeconds());
    out.writeLongLE(algorithm.burst());
  }

  @Override
  public StrategyTask readTask(ByteBuf in) {
    byte[] key = BatchWire.readBytes(in);
    long hits = in.readLongLE();
    StrategyAlgorithm.Kind kind = StrategyAlgorithm.Kind.values()[in.readUnsignedByte()];
    return new StrategyTask(key, new StrategyAlgorithm(kind, in.readLongLE(), in.readLongLE(), in.readLongLE()), hits);
  }

  @Override
  protected void writeValue(ByteBuf out, Algorithm.Count count) {
    out.writeLongLE(count.after());
    out.writeLongLE(count.capacity());
    out.writeLongLE(count.secondsUntilReset());
    out.writeLongLE(count.overUntilNanos());
  }

  @Override
  protected Algorithm.Count readValue(ByteBuf in) {
    return new Algorithm.Count(in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE());
  }
}
