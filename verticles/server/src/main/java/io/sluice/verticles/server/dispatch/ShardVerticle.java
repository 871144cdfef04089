package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.persist.SnapshotRun;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
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
 * evicts or refuses records. With persistence (each route's store its own log: a single node's
 * shard, or each partition in a cluster), it takes snapshots in slices between requests, holds
 * replies until their changes are on disk when the policy is {@code always}, and flushes its logs
 * when undeployed.
 */
public final class ShardVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(ShardVerticle.class.getName());

  /** How often the shard asks whether a snapshot is due. */
  private static final long SNAPSHOT_CHECK_MILLIS = 1000;

  private final int index;
  private final List<HostedRoute> routes;
  private final BatchExecutor[] executors;
  private final BatchExecutor gathered;
  private final ShardDirectory directory;
  private final long sweepIntervalMillis;
  /** The persisted routes' logs; empty when nothing is persisted. */
  private final List<ShardPersistence> logs;
  private MessageConsumer<ShardParcel> consumer;
  private long sweepTimer = -1;
  private long snapshotTimer = -1;
  private boolean stopped;

  /** @param routes what it serves, each persisted by its {@link HostedRoute#persistence} when set */
  public ShardVerticle(int index, List<HostedRoute> routes, ShardDirectory directory, long sweepIntervalMillis) {
    this(index, routes, null, directory, sweepIntervalMillis);
  }

  /**
   * @param gathered how it runs a {@linkplain ShardBatch#gathered gathered} batch, whose entries
   *                 belong to several of its routes (a cluster node's partitions); null where
   *                 batches are of one route
   */
  public ShardVerticle(int index, List<HostedRoute> routes, BatchExecutor gathered, ShardDirectory directory,
                       long sweepIntervalMillis) {
    this.index = index;
    this.gathered = gathered;
    this.routes = List.copyOf(routes);
    this.executors = new BatchExecutor[directory.routes()];
    routes.forEach(route -> executors[route.route()] = route.executor());
    this.directory = directory;
    this.sweepIntervalMillis = sweepIntervalMillis;
    this.logs = routes.stream().map(HostedRoute::persistence).filter(java.util.Objects::nonNull).toList();
  }

  @Override
  public Future<?> start() {
    // One sweep for all the stores on this thread: a cluster node's partitions share its budget.
    ExpirySweep sweep = new ExpirySweep(routes.stream().map(HostedRoute::store).toList());
    List<FullStoreWarning> fullStores = routes.stream().map(route -> new FullStoreWarning(route.store())).toList();
    sweepTimer = vertx.setPeriodic(sweepIntervalMillis, id -> {
      sweep.run();
      for (int i = 0; i < fullStores.size(); i++) {
        String warning = fullStores.get(i).check(routes.get(i).store().now());
        if (warning != null) {
          LOG.log(System.Logger.Level.WARNING, "shard " + index + " " + warning);
        }
      }
    });
    if (!logs.isEmpty()) {
      snapshotTimer = vertx.setPeriodic(SNAPSHOT_CHECK_MILLIS, id -> {
        for (HostedRoute route : routes) {
          if (route.persistence() != null && route.persistence().snapshotDue()) {
            snapshot(route);
          }
        }
      });
    }
    DeliveryOptions local = new DeliveryOptions().setLocalOnly(true);
    consumer = vertx.eventBus().consumer(ShardAddress.of(index), message -> {
      ShardParcel parcel = message.body();
      for (ShardBatch batch : parcel.batches()) {
        executorOf(batch).execute(batch);
      }
      whenDurable(() -> message.reply(parcel, local));
    });
    return consumer.completion().onSuccess(v -> {
      routes.forEach(route -> directory.register(route.route(), route.executor(), this::whenDurable));
      if (gathered != null) {
        directory.registerGathered(index, gathered, this::whenDurable);
      }
    });
  }

  private BatchExecutor executorOf(ShardBatch batch) {
    if (!batch.isGathered()) {
      return executors[batch.route()];
    }
    if (gathered == null) {
      // Only a cluster node's verticles are sent gathered batches; answer rather than throw.
      return ShardVerticle::refuse;
    }
    return gathered;
  }

  private static void refuse(ShardBatch batch) {
    ThrottrShard.failUnrun(batch,
        new IllegalStateException("this shard runs no batch gathered from several routes"));
  }

  /**
   * Runs {@code reply} on this shard's loop once the changes so far are as safe as the policy
   * promises, in every store of this shard.
   */
  private void whenDurable(Runnable reply) {
    if (logs.isEmpty()) {
      reply.run();
      return;
    }
    Context loop = context;
    java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger(logs.size());
    for (ShardPersistence log : logs) {
      log.whenDurable(() -> {
        if (waiting.decrementAndGet() > 0) {
          return;
        }
        if (io.vertx.core.Vertx.currentContext() == loop) {
          reply.run();
        } else {
          loop.runOnContext(v -> reply.run());
        }
      });
    }
  }

  /** Starts a snapshot of a route's store; its slices run one per turn of this loop, each after the last was written. */
  private void snapshot(HostedRoute route) {
    SnapshotRun run = route.persistence().startSnapshot(route.store());
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
    directory.unregisterGathered(index);
    vertx.cancelTimer(sweepTimer);
    vertx.cancelTimer(snapshotTimer);
    Future<Void> unregistered = consumer.unregister();
    if (logs.isEmpty()) {
      return unregistered;
    }
    // Everything the shard changed is in the logs; write and force them before the process goes.
    return unregistered.eventually(() -> vertx.executeBlocking(() -> {
      for (ShardPersistence log : logs) {
        log.close();
      }
      return null;
    }));
  }
}
