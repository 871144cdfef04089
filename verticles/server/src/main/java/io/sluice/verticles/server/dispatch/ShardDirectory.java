package io.sluice.verticles.server.dispatch;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.vertx.core.Context;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

/**
 * Which routes run on which shard verticle, and which verticles on which event loop. A route is
 * what a batch is addressed to: one per shard on a single node, one per partition in a cluster
 * (several partitions then share a shard verticle). A front reaches route {@code r} over the event
 * bus at the address of its verticle ({@link ShardAddress#of}, see {@link ShardOutbox}), or, when
 * that verticle runs on the caller's own event loop, by a direct call that takes no thread hop.
 * Both paths run the same {@link BatchExecutor}; each (connection, route) pair always takes the
 * same path, so per-connection order on a route is kept. An executor never throws: an entry that
 * fails is answered as a failure there, so neither path loses the other entries' replies.
 */
public final class ShardDirectory {

  private final AtomicReferenceArray<LocalRoute> local;
  /** Per shard verticle, how it runs a {@linkplain ShardBatch#gathered gathered} batch; unset on a node alone. */
  private final AtomicReferenceArray<LocalRoute> gathered;
  private final int verticles;
  private final IntUnaryOperator verticleOf;
  private volatile IntConsumer parcelSizes = size -> { };
  private volatile BiFunction<Context, ShardOutbox, ShardRouter> routers = (context, outbox) -> outbox;

  /** {@code durable} runs a reply once what the batch changed is as safe as persistence promises. */
  private record LocalRoute(Thread thread, BatchExecutor executor, Consumer<Runnable> durable) {
  }

  /** One route per shard, one shard per verticle. */
  public ShardDirectory(int shards) {
    this(shards, shards, route -> route);
  }

  /** {@code routes} routes over {@code verticles} shard verticles, route {@code r} on {@code verticleOf(r)}. */
  public ShardDirectory(int routes, int verticles, IntUnaryOperator verticleOf) {
    this.local = new AtomicReferenceArray<>(routes);
    this.gathered = new AtomicReferenceArray<>(verticles);
    this.verticles = verticles;
    this.verticleOf = verticleOf;
  }

  /** The number of routes (shards, or a cluster's partitions) the key space is split into. */
  public int routes() {
    return local.length();
  }

  /** The number of shard verticles. */
  public int verticles() {
    return verticles;
  }

  /** The shard verticle that serves {@code route}. */
  public int verticleOf(int route) {
    return verticleOf.applyAsInt(route);
  }

  /**
   * The shard verticle a batch goes to: its route's, or for a gathered batch its entries' (the
   * first entry's partition: {@link ShardOutbox} keeps a gathered batch on one verticle, splitting
   * one from a node that places partitions otherwise).
   */
  int verticleOf(ShardBatch batch) {
    return verticleOf(batch.partitionOf(0));
  }

  /**
   * The router a front uses on {@code loop}: this process's shards, or, once a cluster has
   * {@linkplain #routeThrough wrapped} them, the whole cluster. Call on that loop.
   */
  public ShardRouter routerFor(Context loop) {
    return routers.apply(loop, localRouter(loop));
  }

  /** The router of this process's own shards alone, whatever a cluster says; call on {@code loop}. */
  public ShardOutbox localRouter(Context loop) {
    return new ShardOutbox(loop, loop.owner().eventBus(), this);
  }

  /** Makes {@link #routerFor} wrap each loop's local router; set before the fronts start. */
  public void routeThrough(BiFunction<Context, ShardOutbox, ShardRouter> wrap) {
    this.routers = wrap;
  }

  /** Receives the number of batches in each parcel sent over the event bus (for metrics). */
  public void observeParcelSizes(IntConsumer observer) {
    this.parcelSizes = observer;
  }

  void parcelSent(int batches) {
    parcelSizes.accept(batches);
  }

  /** Called by a shard verticle from its own event loop once it serves. */
  void register(int route, BatchExecutor executor, Consumer<Runnable> durable) {
    local.set(route, new LocalRoute(Thread.currentThread(), executor, durable));
  }

  void unregister(int route) {
    local.set(route, null);
  }

  /** Called by a shard verticle from its own event loop: how it runs gathered batches. */
  void registerGathered(int verticle, BatchExecutor executor, Consumer<Runnable> durable) {
    gathered.set(verticle, new LocalRoute(Thread.currentThread(), executor, durable));
  }

  void unregisterGathered(int verticle) {
    gathered.set(verticle, null);
  }

  /**
   * Runs the batch at once when its route lives on the calling thread, then {@code answered} (at
   * once too, unless {@code --fsync always} holds it until the disk has the batch's changes);
   * false otherwise.
   */
  boolean executeIfLocal(ShardBatch batch, Runnable answered) {
    LocalRoute target = batch.isGathered() ? gathered.get(verticleOf(batch)) : local.get(batch.route());
    if (target != null && target.thread == Thread.currentThread()) {
      target.executor.execute(batch);
      target.durable.accept(answered);
      return true;
    }
    return false;
  }
}
