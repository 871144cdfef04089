package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;

import java.util.List;
import java.util.function.Consumer;

/** What a shard's thread hands its writer for one log, in order: images to append, rotations, snapshot parts. */
sealed interface WriterOp {

  /** Images appended up to position {@code mark} of the log's appends: what a waiting reply looks for. */
  record Images(ByteBuf bytes, long mark) implements WriterOp {
  }

  /** Force and close the current log, start log {@code generation}. */
  record Rotate(long generation) implements WriterOp {
  }

  record SnapshotStart(long generation) implements WriterOp {
  }

  /** One slice's blocks; {@code written} runs once they are. */
  record SnapshotPart(List<ByteBuf> blocks, Runnable written) implements WriterOp {
  }

  record SnapshotEnd(long generation, long worstSliceNanos, Consumer<Throwable> done) implements WriterOp {
  }
}
