package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

/**
 * A read-modify-write of one key that must happen atomically where the key lives: rate-limit
 * strategies and the UDP protocol keep their state this way. It travels to the owning shard in a
 * {@link ShardBatch} like a Throttr request, runs on the shard's thread, and carries its result back.
 *
 * <p><b>Failure contract.</b> If {@link #run} throws anything (an exception, a
 * {@link StackOverflowError}, an {@link OutOfMemoryError}), the shard catches it, logs it once with
 * the key and the task's type, and calls {@link #failed} with it, still on the shard's thread; then
 * it goes on with the rest of the batch and of the event-bus message, whose entries are answered as
 * if nothing had happened. The task's result must then read as a failure: whoever sent it answers
 * its own request with an error and nothing else. What {@code run} wrote through {@link KeyState}
 * before it threw stays written: the shard has no transactions, so a task should decide before it
 * writes.
 */
public non-sealed interface ShardTask extends ShardWork {

  byte[] key();

  void run(KeyState state, long nowNanos);

  /**
   * {@link #run} threw {@code error}; called once, on the shard's thread, instead of a normal
   * completion. Must not throw: record the failure where the sender will read it.
   */
  void failed(Throwable error);

  /** Runs the task on its key's {@link KeyState}: called by the shard, not to be overridden. */
  @Override
  default void run(ShardContext shard) {
    TaskState.run(shard, this);
  }

  @Override
  default void fail(Throwable error, ByteBuf replies) {
    failed(error);
  }

  @Override
  default boolean holdsItsFailure() {
    return true;
  }

  @Override
  default void accept(Kinds kinds, int slot) {
    kinds.task(this);
  }
}
