package io.sluice.verticles.server.shard;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.ExpirySweep;
import io.sluice.verticles.engine.storage.FullStoreWarning;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;

/**
 * One storage shard: owns the records whose key hashes to it and serves batches sent to its
 * event-bus address, on its own event loop, one at a time. Reclaims expired records in small
 * bounded steps on a timer so a sweep never stalls the shard; on the same timer, warns (at most
 * once a minute) when the shard is full and evicts or refuses records.
 */
public final class ShardVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(ShardVerticle.class.getName());

  private final int index;
  private final ThrottrShard shard;
  private final ShardDirectory directory;
  private final long sweepIntervalMillis;
  private MessageConsumer<ShardParcel> consumer;
  private long sweepTimer = -1;

  public ShardVerticle(int index, ThrottrShard shard, ShardDirectory directory, long sweepIntervalMillis) {
    this.index = index;
    this.shard = shard;
    this.directory = directory;
    this.sweepIntervalMillis = sweepIntervalMillis;
  }

  @Override
  public Future<?> start() {
    ExpirySweep sweep = new ExpirySweep(shard.store());
    FullStoreWarning fullStore = new FullStoreWarning(shard.store());
    sweepTimer = vertx.setPeriodic(sweepIntervalMillis, id -> {
      sweep.run();
      String warning = fullStore.check(shard.store().now());
      if (warning != null) {
        LOG.log(System.Logger.Level.WARNING, "shard " + index + " " + warning);
      }
    });
    DeliveryOptions local = new DeliveryOptions().setLocalOnly(true);
    consumer = vertx.eventBus().consumer(ShardAddress.of(index), message -> {
      ShardParcel parcel = message.body();
      for (ShardBatch batch : parcel.batches()) {
        shard.execute(batch);
      }
      message.reply(parcel, local);
    });
    return consumer.completion().onSuccess(v -> directory.register(index, shard));
  }

  @Override
  public Future<?> stop() {
    directory.unregister(index);
    vertx.cancelTimer(sweepTimer);
    return consumer.unregister();
  }
}
