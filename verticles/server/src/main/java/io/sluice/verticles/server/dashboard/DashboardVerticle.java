package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
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
  private final DashboardData data;
  private final PersistentShards persistence;
  private long timer = -1;
  private boolean sampled;
  private long lastSampleMillis;

  /**
   * @param data        where the last hour's samples go, with the limits' activity they are read from
   * @param persistence the shards' persistence, shown in every overview
   */
  public DashboardVerticle(Instance instance, ShardDirectory directory, long periodMillis, DashboardData data,
                           PersistentShards persistence) {
    this.persistence = persistence;
    this.instance = instance;
    this.directory = directory;
    this.periodMillis = periodMillis;
    this.data = data;
  }

  @Override
  public Future<?> start() {
    ShardQueries shards = new ShardQueries(context, directory);
    timer = vertx.setPeriodic(periodMillis, tick ->
        Overview.collect(shards, instance, data, persistence).onSuccess(overview -> {
          vertx.eventBus().publish(OVERVIEW_ADDRESS, overview.encode());
          sample(overview);
        }));
    return Future.succeededFuture();
  }

  /** One history sample per step of the clock's time: the first overview, then one every 10 s. */
  private void sample(io.vertx.core.json.JsonObject overview) {
    long now = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(instance.clock().epochNanos());
    if (!sampled || now - lastSampleMillis >= History.STEP_SECONDS * 1000L) {
      sampled = true;
      lastSampleMillis = now;
      data.history().add(History.of(now, overview, data));
    }
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }
}
