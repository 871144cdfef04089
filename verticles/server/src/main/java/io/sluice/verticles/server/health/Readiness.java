package io.sluice.verticles.server.health;

import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether this instance can serve, as every probe asks it ({@code /ready}, {@code /healthcheck},
 * the gRPC health service): every storage shard answers within {@link #TIMEOUT_MILLIS} (a shard
 * that is gone or stuck makes the instance unready), nothing else holds it back (a cluster node
 * still joining, a failed write to the data directory, a rate limit config still missing), and it
 * is not draining to stop.
 */
public final class Readiness {

  static final long TIMEOUT_MILLIS = 2000;

  private final ShardDirectory directory;
  private final Supplier<Optional<String>> notReady;
  private volatile boolean draining;

  /** @param notReady why this instance is not ready beyond its shards, or empty */
  public Readiness(ShardDirectory directory, Supplier<Optional<String>> notReady) {
    this.directory = directory;
    this.notReady = notReady;
  }

  /** The server has begun its clean stop: from now on it is neither ready nor serving. */
  public void draining() {
    draining = true;
  }

  /** Whether the server has begun its clean stop. */
  public boolean isDraining() {
    return draining;
  }

  /** The probe of the calling event loop, over that loop's own way to the shards. */
  public Probe probe() {
    return new Probe(Vertx.currentContext());
  }

  /** The readiness check of one event loop. */
  public final class Probe {

    private final Context loop;
    private final ShardQueries shards;

    private Probe(Context loop) {
      this.loop = loop;
      this.shards = new ShardQueries(loop, directory);
    }

    /** The way to the shards this probe asks. */
    public ShardQueries shards() {
      return shards;
    }

    /** Succeeds when this instance can serve; fails with the reason otherwise. */
    public Future<Void> check() {
      if (draining) {
        return Future.failedFuture("draining: the server is stopping");
      }
      Optional<String> waiting = notReady.get();
      if (waiting.isPresent()) {
        return Future.failedFuture(waiting.get());
      }
      Vertx vertx = loop.owner();
      Promise<Void> answered = Promise.promise();
      long timeout = vertx.setTimer(TIMEOUT_MILLIS, t -> answered.tryFail("no answer within " + TIMEOUT_MILLIS + " ms"));
      shards.summaries().onComplete(all -> {
        vertx.cancelTimer(timeout);
        if (all.succeeded()) {
          answered.tryComplete();
        } else {
          answered.tryFail(all.cause());
        }
      });
      return answered.future().recover(failure -> Future.failedFuture("storage shards: " + failure.getMessage()));
    }
  }
}
