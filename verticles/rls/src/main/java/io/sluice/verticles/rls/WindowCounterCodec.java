package io.sluice.verticles.rls;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ResultTaskCodec;

/**
 * A descriptor's window counter travelling to its owner in a cluster: the counter's key, the hits
 * and the window's end go (the asking node already chose the limit and the window from its
 * config); the count after the addition, or the refusal, comes back. So a descriptor is counted
 * once, whichever nodes its requests reach.
 */
public final class WindowCounterCodec extends ResultTaskCodec<Long, WindowCounter> {

  /** Its wire id: fixed, see {@link io.sluice.verticles.engine.shard.TaskCodec#id}. */
  public static final int ID = 2;

  @Override
  public int id() {
    return ID;
  }

  @Override
  public Class<WindowCounter> type() {
    return WindowCounter.class;
  }

  @Override
  public void writeTask(ByteBuf out, WindowCounter task) {
    BatchWire.writeBytes(out, task.key());
    out.writeLongLE(task.hits());
    out.writeLongLE(task.windowEndNanos());
  }

  @Override
  public WindowCounter readTask(ByteBuf in) {
    return new WindowCounter(BatchWire.readBytes(in), in.readLongLE(), in.readLongLE());
  }

  @Override
  protected void writeValue(ByteBuf out, Long count) {
    out.writeLongLE(count);
  }

  @Override
  protected Long readValue(ByteBuf in) {
    return in.readLongLE();
  }
}
