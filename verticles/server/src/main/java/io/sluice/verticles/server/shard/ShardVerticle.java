package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.storage.ExpirySweep;
import io.sluice.verticles.engine.storage.FullStoreWarning;
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
 * evicts or refuses records.
 */
public final class ShardVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(ShardVerticle.class.getName());

  private final int index;
  private final List<HostedRoute> routes;
  private final BatchExecutor[] executors;
  private final ShardDirectory directory;
  private final long sweepIntervalMillis;
  private MessageConsumer<ShardParcel> consumer;
  private long sweepTimer = -1;

  public ShardVerticle(int index, List<HostedRoute> routes, ShardDirectory directory, long sweepIntervalMillis) {
    this.index = index;
    this.routes = List.copyOf(routes);
    this.executors = new BatchExecutor[directory.shards()];
    routes.forEach(route -> executors[route.route()] = route.executor());
    this.directory = directory;
    this.sweepIntervalMillis = sweepIntervalMillis;
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
    DeliveryOptions local = new DeliveryOptions().setLocalOnly(true);
    consumer = vertx.eventBus().consumer(ShardAddress.of(index), message -> {
      ShardParcel parcel = message.body();
      for (ShardBatch batch : parcel.batches()) {
        executors[batch.shard()].execute(batch);
      }
      message.reply(parcel, local);
    });
    return consumer.completion().onSuccess(v -> routes.forEach(route -> directory.register(route.route(), route.executor())));
  }

  @Override
  public Future<?> stop() {
    routes.forEach(route -> directory.unregister(route.route()));
    vertx.cancelTimer(sweepTimer);
    return consumer.unregister();
  }
}
