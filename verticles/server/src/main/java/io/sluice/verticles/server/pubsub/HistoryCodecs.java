package io.sluice.verticles.server.pubsub;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.TaskCodec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How a channel's history work travels to the owner of its record in a cluster. The owner rebuilds
 * an append with its own limits and its own fan-out, so the numbered message leaves from the node
 * that numbered it; the offset and epoch come back. A read brings the messages back.
 */
public final class HistoryCodecs {

  /** Wire ids: fixed, see {@link TaskCodec#id}. */
  public static final int APPEND_ID = 5;
  public static final int READ_ID = 6;
  /** The kinds of read, as {@link HistoryRead.Query#writeTo} names them. */
  static final byte SINCE = 0;
  static final byte LATEST = 1;

  private HistoryCodecs() {
  }

  /** @param fanOut publishes a numbered message to every node's subscribers */
  public static List<TaskCodec<?>> tasks(HistoryLimits limits, Consumer<ChannelMessage> fanOut) {
    return List.of(new Append(limits, fanOut), new Read(limits));
  }

  private static void writeFailure(ByteBuf out, Throwable failure) {
    out.writeBoolean(failure != null);
    if (failure != null) {
      BatchWire.writeString(out, String.valueOf(failure.getMessage()));
    }
  }

  private static Throwable readFailure(ByteBuf in) {
    return in.readBoolean() ? new IllegalStateException("on the channel's owner: " + BatchWire.readString(in)) : null;
  }

  private record Append(HistoryLimits limits, Consumer<ChannelMessage> fanOut) implements TaskCodec<HistoryAppend> {

    @Override
    public int id() {
      return APPEND_ID;
    }

    @Override
    public Class<HistoryAppend> type() {
      return HistoryAppend.class;
    }

    @Override
    public void writeTask(ByteBuf out, HistoryAppend task) {
      BatchWire.writeBytes(out, task.channel());
      BatchWire.writeBytes(out, task.payload());
      BatchWire.writeBytes(out, task.publisherId());
    }

    @Override
    public HistoryAppend readTask(ByteBuf in) {
      return new HistoryAppend(BatchWire.readBytes(in), BatchWire.readBytes(in), BatchWire.readBytes(in), limits, fanOut);
    }

    @Override
    public void writeResult(ByteBuf out, HistoryAppend ran) {
      out.writeLongLE(ran.offset()).writeLongLE(ran.epoch()).writeBoolean(ran.kept());
      writeFailure(out, ran.failure());
    }

    @Override
    public void readResult(ByteBuf in, HistoryAppend original) {
      original.ranElsewhere(in.readLongLE(), in.readLongLE(), in.readBoolean(), readFailure(in));
    }
  }

  private record Read(HistoryLimits limits) implements TaskCodec<HistoryRead> {

    @Override
    public int id() {
      return READ_ID;
    }

    @Override
    public Class<HistoryRead> type() {
      return HistoryRead.class;
    }

    @Override
    public void writeTask(ByteBuf out, HistoryRead task) {
      BatchWire.writeBytes(out, task.channel());
      task.query().writeTo(out);
    }

    @Override
    public HistoryRead readTask(ByteBuf in) {
      byte[] channel = BatchWire.readBytes(in);
      byte kind = in.readByte();
      HistoryRead.Query query = switch (kind) {
        case SINCE -> new HistoryRead.Since(in.readLongLE(), in.readLongLE());
        case LATEST -> new HistoryRead.Latest(in.readIntLE());
        default -> throw new IllegalArgumentException("unknown kind of history read " + kind);
      };
      return new HistoryRead(channel, query, limits);
    }

    @Override
    public void writeResult(ByteBuf out, HistoryRead ran) {
      writeFailure(out, ran.failure());
      ChannelHistory.Recovery answer = ran.answer();
      if (answer == null) {
        return;
      }
      out.writeLongLE(answer.epoch()).writeLongLE(answer.top());
      BatchWire.writeString(out, answer.lost() == null ? "" : answer.lost());
      out.writeIntLE(answer.held()).writeIntLE(answer.messages().size());
      for (ChannelHistory.Entry entry : answer.messages()) {
        out.writeLongLE(entry.offset()).writeLongLE(entry.atNanos());
        BatchWire.writeBytes(out, entry.payload());
      }
    }

    @Override
    public void readResult(ByteBuf in, HistoryRead original) {
      Throwable failure = readFailure(in);
      if (failure != null) {
        original.ranElsewhere(null, failure);
        return;
      }
      long epoch = in.readLongLE();
      long top = in.readLongLE();
      String lost = BatchWire.readString(in);
      int held = in.readIntLE();
      int count = in.readIntLE();
      List<ChannelHistory.Entry> messages = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        messages.add(new ChannelHistory.Entry(in.readLongLE(), in.readLongLE(), BatchWire.readBytes(in)));
      }
      original.ranElsewhere(new ChannelHistory.Recovery(epoch, top, messages, lost.isEmpty() ? null : lost, held), null);
    }
  }
}
