package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

/**
 * How one kind of {@link ShardTask} travels to a key's owner on another node and its result comes
 * back: the task's arguments (not its objects: the receiving node rebuilds the task from its own
 * configuration, which every node loads from the same file) and its result. One codec per task
 * class, registered in {@link TaskCodecs} under the fixed wire id it declares.
 */
public interface TaskCodec<T extends ShardTask> {

  /**
   * The byte that names this kind of task on the wire, the same on every node and in every
   * version: a constant of the codec, never changed once released (a node of another version
   * would read a different task), and unique among the task codecs ({@link TaskCodecs} refuses a
   * duplicate). 0 to 255.
   */
  int id();

  /** The task class this codec carries. */
  Class<T> type();

  /** Writes what the owner needs to rebuild the task. */
  void writeTask(ByteBuf out, T task);

  /** Rebuilds the task on the owner; throws IllegalArgumentException when it cannot (unknown policy). */
  T readTask(ByteBuf in);

  /** Writes the result of a task that ran on the owner. */
  void writeResult(ByteBuf out, T ran);

  /** Reads the result into the sender's own task, as if it had run here. */
  void readResult(ByteBuf in, T original);
}
