package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.persist.SnapshotRun;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.storage.ExpirySweep;
import io.sluice.verticles.engine.storage.FullStoreWarning;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;

import java.util.List;

/**
 * One storage shard: owns the records of its routes (one route on a single node, the partitions
 * placed on it in a cluster) and serves batches sent to its event-bus address, on its own event
 * loop, one at a time. Reclaims expired records in small bounded steps on a timer so a sweep never
 * stalls the shard; on the same timer, warns (at most once a minute) when a store is full and
 * evicts or refuses records. With persistence (a single node's one route), it takes snapshots in
 * slices between requests, holds replies until their changes are on disk when the policy is
 * {@code always}, and flushes its log when undeployed.
 */
public final class ShardVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(ShardVerticle.class.getName());

  /** How often the shard asks whether a snapshot is due. */
  private static final long SNAPSHOT_CHECK_MILLIS = 1000;

  private final int index;
  private final List<HostedRoute> routes;
  private final BatchExecutor[] executors;
  private final ShardDirectory directory;
  private final long sweepIntervalMillis;
  private final ShardPersistence persistence;
  private MessageConsumer<ShardParcel> consumer;
  private long sweepTimer = -1;
  private long snapshotTimer = -1;
  private boolean stopped;

  public ShardVerticle(int index, List<HostedRoute> routes, ShardDirectory directory, long sweepIntervalMillis) {
    this(index, routes, directory, sweepIntervalMillis, null);
  }

  /**
   * @param persistence the log and snapshots of the one route's store, already listening to it;
   *                    null for none
   */
  public ShardVerticle(int index, List<HostedRoute> routes, ShardDirectory directory, long sweepIntervalMillis,
                       ShardPersistence persistence) {
    if (persistence != null && routes.size() != 1) {
      throw new IllegalArgumentException("a persistent shard serves exactly one route, not " + routes.size());
    }
    this.index = index;
    this.routes = List.copyOf(routes);
    this.executors = new BatchExecutor[directory.shards()];
    routes.forEach(route -> executors[route.route()] = route.executor());
    this.directory = directory;
    this.sweepIntervalMillis = sweepIntervalMillis;
    this.persistence = persistence;
  }

  @Override
  public Future<?> start() {
    List<ExpirySweep> sweeps = routes.stream().map(route -> new ExpirySweep(route.store())).toList();
    List<FullStoreWarning> fullStores = routes.stream().map(route -> new FullStoreWarning(route.store())).toList();
    sweepTimer = vertx.setPeriodic(sweepIntervalMillis, id -> {
      sweeps.forEach(ExpirySweep::run);
      for (int i = 0; i < fullStores.size(); i++) {
        String warning = fullStores.get(i).check(routes.get(i).store().now());
        if (warning != null) {
          LOG.log(System.Logger.Level.WARNING, "shard " + index + " " + warning);
        }
      }
    });
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
        executors[batch.shard()].execute(batch);
      }
      whenDurable(() -> message.reply(parcel, local));
    });
    return consumer.completion().onSuccess(v ->
        routes.forEach(route -> directory.register(route.route(), route.executor(), this::whenDurable)));
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
    SnapshotRun run = persistence.startSnapshot(routes.get(0).store());
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
    routes.forEach(route -> directory.unregister(route.route()));
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
