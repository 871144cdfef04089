package io.sluice.verticles.server.udp;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ResultTaskCodec;
import io.sluice.verticles.engine.shard.ScanCodec;
import io.sluice.verticles.engine.shard.TaskCodec;
import io.sluice.verticles.engine.udprate.rate.RateEvaluation;
import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.store.RateUse;
import io.sluice.verticles.engine.udprate.store.WindowUse;

import java.util.List;

/**
 * How the UDP protocol's work on its state records travels to a key's owner in a cluster. An
 * {@code over_limit} step goes as its numbers (the asking node's time, and the limit, period and
 * strictness of the rule that node picked), so the owner computes exactly what the asking node
 * would have, whatever its own rule table says at that instant; the evaluation comes back.
 * get_size's count goes to each partition's owner and its count comes back.
 */
public final class UdpRateCodecs {

  /** The wire id of an {@code over_limit} step: fixed, see {@link TaskCodec#id}. */
  public static final int RATE_UPDATE_ID = 1;
  /** The wire id of a sliding window rule's {@code over_limit} step: fixed, see {@link TaskCodec#id}. */
  public static final int WINDOW_UPDATE_ID = 4;
  /** The wire id of get_size's count: fixed, see {@link ScanCodec#id}. */
  public static final int COUNT_ID = 0;

  private UdpRateCodecs() {
  }

  public static List<TaskCodec<?>> tasks() {
    return List.of(new RateUpdateCodec(), new WindowUpdateCodec());
  }

  public static List<ScanCodec<?>> scans() {
    return List.of(new CountCodec());
  }

  /** An {@code over_limit} step's answer, the same for every algorithm: the evaluation comes back. */
  private abstract static class EvaluationCodec<T extends ShardRateStore.Update<RateEvaluation>>
      extends ResultTaskCodec<RateEvaluation, T> {

    @Override
    protected void writeValue(ByteBuf out, RateEvaluation result) {
      out.writeDoubleLE(result.rate());
      out.writeBoolean(result.over());
      RateState stored = result.stateToStore();
      out.writeBoolean(stored != null);
      if (stored != null) {
        out.writeDoubleLE(stored.tLastSeconds());
        out.writeDoubleLE(stored.rate());
      }
    }

    @Override
    protected RateEvaluation readValue(ByteBuf in) {
      double rate = in.readDoubleLE();
      boolean over = in.readBoolean();
      RateState stored = in.readBoolean() ? new RateState(in.readDoubleLE(), in.readDoubleLE()) : null;
      return new RateEvaluation(rate, over, stored);
    }
  }

  private static final class RateUpdateCodec extends EvaluationCodec<ShardRateStore.RateUpdate> {

    @Override
    public int id() {
      return RATE_UPDATE_ID;
    }

    @Override
    public Class<ShardRateStore.RateUpdate> type() {
      return ShardRateStore.RateUpdate.class;
    }

    @Override
    public void writeTask(ByteBuf out, ShardRateStore.RateUpdate task) {
      BatchWire.writeBytes(out, task.key());
      RateUse use = task.use();
      out.writeDoubleLE(use.nowSeconds());
      out.writeDoubleLE(use.limit());
      out.writeDoubleLE(use.periodSeconds());
      out.writeBoolean(use.strict());
    }

    @Override
    public ShardRateStore.RateUpdate readTask(ByteBuf in) {
      byte[] key = BatchWire.readBytes(in);
      return new ShardRateStore.RateUpdate(key, new RateUse(in.readDoubleLE(), in.readDoubleLE(), in.readDoubleLE(),
          in.readBoolean()));
    }
  }

  private static final class WindowUpdateCodec extends EvaluationCodec<ShardRateStore.WindowUpdate> {

    @Override
    public int id() {
      return WINDOW_UPDATE_ID;
    }

    @Override
    public Class<ShardRateStore.WindowUpdate> type() {
      return ShardRateStore.WindowUpdate.class;
    }

    @Override
    public void writeTask(ByteBuf out, ShardRateStore.WindowUpdate task) {
      BatchWire.writeBytes(out, task.key());
      WindowUse use = task.use();
      out.writeLongLE(use.nowNs());
      out.writeDoubleLE(use.limit());
      out.writeDoubleLE(use.periodSeconds());
    }

    @Override
    public ShardRateStore.WindowUpdate readTask(ByteBuf in) {
      byte[] key = BatchWire.readBytes(in);
      return new ShardRateStore.WindowUpdate(key, new WindowUse(in.readLongLE(), in.readDoubleLE(), in.readDoubleLE()));
    }
  }

  private static final class CountCodec implements ScanCodec<ShardRateStore.Count> {

    @Override
    public int id() {
      return COUNT_ID;
    }

    @Override
    public Class<ShardRateStore.Count> type() {
      return ShardRateStore.Count.class;
    }

    @Override
    public void writeScan(ByteBuf out, ShardRateStore.Count scan) {
      // A count has no arguments.
    }

    @Override
    public ShardRateStore.Count readScan(ByteBuf in) {
      return new ShardRateStore.Count();
    }

    @Override
    public void writeResult(ByteBuf out, ShardRateStore.Count ran) {
      out.writeLongLE(ran.records());
    }

    @Override
    public void readResult(ByteBuf in, ShardRateStore.Count original) {
      original.add(in.readLongLE());
    }
  }
}
