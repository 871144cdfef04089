package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.persist.SnapshotRun;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.ExpirySweep;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;

/**
 * One storage shard: owns the records whose key hashes to it and serves batches sent to its
 * event-bus address, on its own event loop, one at a time. Reclaims expired records in small
 * bounded steps on a timer so a sweep never stalls the shard. With persistence, it takes
 * snapshots in slices between requests, holds replies until their changes are on disk when the
 * policy is {@code always}, and flushes its log when undeployed.
 */
public final class ShardVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(ShardVerticle.class.getName());

  /** How often the shard asks whether a snapshot is due. */
  private static final long SNAPSHOT_CHECK_MILLIS = 1000;

  private final int index;
  private final ThrottrShard shard;
  private final ShardDirectory directory;
  private final long sweepIntervalMillis;
  private final ShardPersistence persistence;
  private MessageConsumer<ShardParcel> consumer;
  private long sweepTimer = -1;
  private long snapshotTimer = -1;
  private boolean stopped;

  public ShardVerticle(int index, ThrottrShard shard, ShardDirectory directory, long sweepIntervalMillis) {
    this(index, shard, directory, sweepIntervalMillis, null);
  }

  /** @param persistence the shard's log and snapshots, already listening to its store; null for none */
  public ShardVerticle(int index, ThrottrShard shard, ShardDirectory directory, long sweepIntervalMillis,
                       ShardPersistence persistence) {
    this.index = index;
    this.shard = shard;
    this.directory = directory;
    this.sweepIntervalMillis = sweepIntervalMillis;
    this.persistence = persistence;
  }

  @Override
  public Future<?> start() {
    ExpirySweep sweep = new ExpirySweep(shard.store());
    sweepTimer = vertx.setPeriodic(sweepIntervalMillis, id -> sweep.run());
    if (persistence != null) {
      snapshotTimer = vertx.setPeriodic(SNAPSHOT_CHECK_MILLIS, id -> {
        if (persistence.snapshotDue()) {
          snapshot();
        }
      });
    }
    DeliveryOptions local = new DeliveryOptions().setLocalOnly(true);
    consumer = vertx.eventBus().consumer(ShardAddress.of(index), message -> {
      ShardParcel parcel = message.body();
      for (ShardBatch batch : parcel.batches()) {
        shard.execute(batch);
      }
      whenDurable(() -> message.reply(parcel, local));
    });
    return consumer.completion().onSuccess(v -> directory.register(index, shard, this::whenDurable));
  }

  /** Runs {@code reply} on this shard's loop once the changes so far are as safe as the policy promises. */
  private void whenDurable(Runnable reply) {
    if (persistence == null) {
      reply.run();
      return;
    }
    Context loop = context;
    persistence.whenDurable(() -> {
      if (io.vertx.core.Vertx.currentContext() == loop) {
        reply.run();
      } else {
        loop.runOnContext(v -> reply.run());
      }
    });
  }

  /** Starts a snapshot; its slices run one per turn of this loop, each after the last was written. */
  public void snapshot() {
    SnapshotRun run = persistence.startSnapshot(shard.store());
    slice(run);
  }

  private void slice(SnapshotRun run) {
    if (stopped) {
      return;
    }
    run.slice(() -> context.runOnContext(v -> slice(run)), failure -> {
      if (failure == null) {
        LOG.log(System.Logger.Level.DEBUG, () -> "shard " + index + ": snapshot of " + run.slices()
            + " slices, the longest " + run.worstSliceNanos() / 1000 + " µs");
      }
    });
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    directory.unregister(index);
    vertx.cancelTimer(sweepTimer);
    vertx.cancelTimer(snapshotTimer);
    Future<Void> unregistered = consumer.unregister();
    if (persistence == null) {
      return unregistered;
    }
    // Everything the shard changed is in the log; write and force it before the process goes.
    return unregistered.eventually(() -> vertx.executeBlocking(() -> {
      persistence.close();
      return null;
    }));
  }
}
