package io.sluice.verticles.engine.shard;

/**
 * A {@link ShardTask} that computes one result from one key's state on the shard that owns it, or
 * fails: what the UDP state store and Envoy's rate limit service both send, and what
 * {@link io.sluice.verticles.engine.routing.ShardRouter#call} turns into a completion or a
 * failure on the caller's side.
 *
 * <p>A refusal the task means (a record of the wrong kind under its key) is returned from
 * {@link #compute} through {@link #refuse}: it fails this task alone, without the shard's error
 * log line, since it is an answer rather than a bug. Anything thrown is a bug: the shard logs it
 * once and calls {@link #failed}, and the task fails with it.
 *
 * @param <R> what the task answers
 */
public abstract class ResultTask<R> implements ShardTask {

  private final byte[] key;
  // Written on the shard, read on the caller's loop once the batch is back.
  private R result;
  private Throwable failure;

  protected ResultTask(byte[] key) {
    this.key = key;
  }

  /** Reads and writes {@code state}; runs on the shard's thread, atomically for the key. */
  protected abstract R compute(KeyState state, long nowNanos);

  /** What {@link #compute} returns to refuse: the task fails with {@code why}, and nothing is logged. */
  protected final R refuse(RuntimeException why) {
    failure = why;
    return null;
  }

  @Override
  public final byte[] key() {
    return key;
  }

  @Override
  public final void run(KeyState state, long nowNanos) {
    result = compute(state, nowNanos);
  }

  @Override
  public final void failed(Throwable error) {
    failure = error;
  }

  /** Takes what this task answered on its key's owner on another node ({@link ResultTaskCodec}). */
  final void ranElsewhere(R result, Throwable failure) {
    this.result = result;
    this.failure = failure;
  }

  /** The result, once run without failing. */
  public final R result() {
    return result;
  }

  /** Why the task failed, or null. */
  public final Throwable failure() {
    return failure;
  }
}
