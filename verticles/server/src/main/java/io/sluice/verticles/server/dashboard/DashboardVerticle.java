package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.sluice.verticles.server.shard.ShardQueries;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

/**
 * The dashboard's clock: once a period it reads the overview from the shards and publishes it on
 * {@link #OVERVIEW_ADDRESS}, where every open live stream (any HTTP front instance) listens. One
 * read per period serves any number of browsers. Local to this node: each node's dashboard shows
 * its own instance.
 */
public final class DashboardVerticle extends VerticleBase {

  static final String OVERVIEW_ADDRESS = "sluice.dashboard.overview";

  private final Instance instance;
  private final ShardDirectory directory;
  private final long periodMillis;
  private final PersistentShards persistence;
  private long timer = -1;

  public DashboardVerticle(Instance instance, ShardDirectory directory, long periodMillis) {
    this(instance, directory, periodMillis, PersistentShards.none());
  }

  public DashboardVerticle(Instance instance, ShardDirectory directory, long periodMillis,
                           PersistentShards persistence) {
    this.persistence = persistence;
    this.instance = instance;
    this.directory = directory;
    this.periodMillis = periodMillis;
  }

  @Override
  public Future<?> start() {
    ShardQueries shards = new ShardQueries(context, directory);
    timer = vertx.setPeriodic(periodMillis, tick ->
        Overview.collect(shards, instance, persistence).onSuccess(overview ->
            vertx.eventBus().publish(OVERVIEW_ADDRESS, overview.encode())));
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }
}
