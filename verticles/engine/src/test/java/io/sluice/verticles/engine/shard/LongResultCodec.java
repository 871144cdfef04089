package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

import java.util.function.Function;

/** The wire of a test task that travels as its key alone and answers a long: the wire tests' tasks. */
class LongResultCodec<T extends ResultTask<Long>> extends ResultTaskCodec<Long, T> {

  private final int id;
  private final Class<T> type;
  private final Function<byte[], T> task;

  LongResultCodec(int id, Class<T> type, Function<byte[], T> task) {
    this.id = id;
    this.type = type;
    this.task = task;
  }

  @Override
  public int id() {
    return id;
  }

  @Override
  public Class<T> type() {
    return type;
  }

  @Override
  public void writeTask(ByteBuf out, T written) {
    BatchWire.writeBytes(out, written.key());
  }

  @Override
  public T readTask(ByteBuf in) {
    return task.apply(BatchWire.readBytes(in));
  }

  @Override
  protected void writeValue(ByteBuf out, Long result) {
    out.writeLongLE(result);
  }

  @Override
  protected Long readValue(ByteBuf in) {
    return in.readLongLE();
  }
}
