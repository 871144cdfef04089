package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

/**
 * The {@link TaskCodec} of a {@link ResultTask}: the owner's answer travels back as either the
 * task's refusal (its message) or its result, so the sender's {@link
 * io.sluice.verticles.engine.routing.ShardRouter#call} completes or fails as if the task had run
 * here. A subclass says how the task's arguments and its result are written.
 *
 * @param <R> what the task answers
 * @param <T> the task class
 */
public abstract class ResultTaskCodec<R, T extends ResultTask<R>> implements TaskCodec<T> {

  /** Writes the result of a task that ran without failing. */
  protected abstract void writeValue(ByteBuf out, R result);

  protected abstract R readValue(ByteBuf in);

  @Override
  public final void writeResult(ByteBuf out, T ran) {
    Throwable failure = ran.failure();
    out.writeBoolean(failure != null);
    if (failure != null) {
      BatchWire.writeString(out, String.valueOf(failure.getMessage()));
    } else {
      writeValue(out, ran.result());
    }
  }

  @Override
  public final void readResult(ByteBuf in, T original) {
    if (in.readBoolean()) {
      original.ranElsewhere(null, new BatchWire.RemoteFailure(BatchWire.readString(in)));
    } else {
      original.ranElsewhere(readValue(in), null);
    }
  }
}
