package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.routing.BatchParts;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.BatchSplit;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The {@link ShardRouter} of one front verticle instance (one event loop): how its work reaches
 * the shards in this process. A shard on this very loop is
 * called directly, with no thread hop. For the others, batches are gathered during the loop's turn
 * — every connection, every read — and sent as one {@link ShardParcel} per shard when the turn's
 * reads are done, so many small reads cost one event-bus round trip instead of one each. (In a
 * cluster the routes are partitions, several to a shard verticle: the parcel goes per verticle.)
 * Order per connection and shard is kept: batches travel in the order they were dispatched.
 */
public final class ShardOutbox implements ShardRouter {

  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private final Context context;
  private final EventBus eventBus;
  private final ShardDirectory directory;
  private final List<List<Waiting>> waiting;
  private boolean flushScheduled;

  private record Waiting(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
  }

  /** Create on the front verticle's own context. */
  public ShardOutbox(Context context, EventBus eventBus, ShardDirectory directory) {
    this.context = context;
    this.eventBus = eventBus;
    this.directory = directory;
    this.waiting = new ArrayList<>(directory.verticles());
    for (int i = 0; i < directory.verticles(); i++) {
      waiting.add(new ArrayList<>());
    }
  }

  @Override
  public int routes() {
    return directory.routes();
  }

  /** A lane is a shard verticle: a read's requests for the partitions it hosts travel as one batch. */
  @Override
  public int lanes() {
    return directory.verticles();
  }

  @Override
  public int laneOf(int route) {
    return directory.verticleOf(route);
  }

  @Override
  public void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
    if (batch.isGathered() && !onOneVerticle(batch)) {
      // From a node that places partitions on its shards otherwise: one part per verticle here.
      BatchParts.send(BatchSplit.by(batch, slot -> directory.verticleOf(batch.partitionOf(slot))),
          this::dispatch, done, failed);
      return;
    }
    if (directory.executeIfLocal(batch, () -> done.accept(batch))) {
      return;
    }
    waiting.get(directory.verticleOf(batch)).add(new Waiting(batch, done, failed));
    if (!flushScheduled) {
      flushScheduled = true;
      // Runs after the reads of this turn of the event loop have all been handled.
      context.runOnContext(v -> flush());
    }
  }

  private boolean onOneVerticle(ShardBatch batch) {
    int verticle = directory.verticleOf(batch);
    for (int slot = 1; slot < batch.size(); slot++) {
      if (directory.verticleOf(batch.partitionOf(slot)) != verticle) {
        return false;
      }
    }
    return true;
  }

  private void flush() {
    flushScheduled = false;
    for (int verticle = 0; verticle < waiting.size(); verticle++) {
      List<Waiting> parcel = waiting.get(verticle);
      if (parcel.isEmpty()) {
        continue;
      }
      waiting.set(verticle, new ArrayList<>());
      List<ShardBatch> batches = new ArrayList<>(parcel.size());
      parcel.forEach(w -> batches.add(w.batch));
      directory.parcelSent(batches.size());
      Future<Message<ShardParcel>> sent;
      try {
        sent = eventBus.request(ShardAddress.of(verticle), new ShardParcel(verticle, batches), LOCAL);
      } catch (IllegalArgumentException stopped) {
        // The server stopped this turn and took its codec with it: the requests fail, and are answered so.
        sent = Future.failedFuture(stopped);
      }
      sent.onComplete(reply -> {
        if (reply.succeeded()) {
          List<ShardBatch> filled = reply.result().body().batches();
          for (int i = 0; i < parcel.size(); i++) {
            parcel.get(i).done.accept(filled.get(i));
          }
        } else {
          parcel.forEach(w -> w.failed.accept(reply.cause()));
        }
      });
    }
  }
}
