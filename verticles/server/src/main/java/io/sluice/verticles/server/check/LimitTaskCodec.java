package io.sluice.verticles.server.check;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.TaskCodec;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.OnFull;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.http.ApiError;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A check, peek or reset travelling to its key's owner in a cluster: the kind, the key, the
 * policy's name and the cost go; the owner takes the strategy from its own policies in service
 * (every node loads the same file, and reloads it), and the decision, or the failure, comes back.
 */
public final class LimitTaskCodec implements TaskCodec<LimitTask> {

  /** Its wire id: fixed, see {@link TaskCodec#id}. */
  public static final int ID = 0;

  private final Supplier<Policies> policies;

  /** @param policies the policies in service, read at each task: a reload may replace them */
  public LimitTaskCodec(Supplier<Policies> policies) {
    this.policies = policies;
  }

  @Override
  public int id() {
    return ID;
  }

  @Override
  public Class<LimitTask> type() {
    return LimitTask.class;
  }

  @Override
  public void writeTask(ByteBuf out, LimitTask task) {
    out.writeByte(task.kind().ordinal());
    BatchWire.writeBytes(out, task.key());
    // The name from the key, not from the strategy: a reload may have replaced the policy since.
    BatchWire.writeString(out, task.strategy() == null ? "" : LimitKey.policyOf(task.key()));
    out.writeLongLE(task.cost());
  }

  @Override
  public LimitTask readTask(ByteBuf in) {
    LimitTask.Kind kind = LimitTask.Kind.values()[in.readUnsignedByte()];
    byte[] key = BatchWire.readBytes(in);
    String policy = BatchWire.readString(in);
    long cost = in.readLongLE();
    Policy named = kind == LimitTask.Kind.RESET ? null : policies.get().get(policy);
    if (kind != LimitTask.Kind.RESET && named == null) {
      throw new IllegalArgumentException("policy " + policy + " is not configured on this node");
    }
    return new LimitTask(kind, key, named == null ? null : named.strategy(), cost,
        named == null ? OnFull.ALLOW : named.onFull());
  }

  @Override
  public void writeResult(ByteBuf out, LimitTask ran) {
    out.writeLongLE(ran.nowNs());
    out.writeBoolean(ran.removed());
    ApiError failure = ran.failure();
    out.writeBoolean(failure != null);
    if (failure != null) {
      out.writeShortLE(failure.status());
      BatchWire.writeString(out, failure.getMessage());
      BatchWire.writeString(out, failure.body().encode());
    }
    Decision decision = ran.decision();
    out.writeShortLE(decision == null ? -1 : decision.results().size());
    if (decision != null) {
      for (Result result : decision.results()) {
        BatchWire.writeString(out, result.name());
        out.writeBoolean(result.allowed());
        out.writeLongLE(result.limit());
        out.writeLongLE(result.remaining());
        out.writeLongLE(result.resetNs());
        out.writeLongLE(result.retryAfterNs());
      }
    }
  }

  @Override
  public void readResult(ByteBuf in, LimitTask original) {
    long nowNs = in.readLongLE();
    boolean removed = in.readBoolean();
    ApiError failure = null;
    if (in.readBoolean()) {
      int status = in.readUnsignedShortLE();
      String message = BatchWire.readString(in);
      JsonObject details = new JsonObject(BatchWire.readString(in));
      details.remove("error");
      failure = new ApiError(status, message, details.isEmpty() ? null : details);
    }
    short results = in.readShortLE();
    Decision decision = null;
    if (results >= 0) {
      List<Result> all = new ArrayList<>(results);
      for (int i = 0; i < results; i++) {
        all.add(new Result(BatchWire.readString(in), in.readBoolean(), in.readLongLE(), in.readLongLE(),
            in.readLongLE(), in.readLongLE()));
      }
      decision = new Decision(all);
    }
    original.ranElsewhere(nowNs, decision, removed, failure);
  }
}
