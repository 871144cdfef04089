package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardScan;
import io.sluice.verticles.engine.shard.SlicedScan;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Walks every shard for the keys table without stalling the shards (issue 12: ten deep pages over a
 * million keys held them for 13 s). Each shard is walked in slices of bounded work
 * ({@link SlicedScan}); the next slice is sent from a timer once the previous one has answered, so
 * the event loop serves its sockets and other shard requests in between (a task queued with
 * runOnContext could run before them, for up to a second of queued tasks). At most
 * {@link #AT_ONCE} walks run in the whole process: a page asked for meanwhile is answered 503 at
 * once, so open pages and scripts cannot pile up work. A walk stops when its client has gone.
 * One instance for the process, shared by the HTTP front instances.
 */
final class KeyScans {

  static final int AT_ONCE = 2;
  private static final long PAUSE_MILLIS = 1;
  private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");

  private final AtomicInteger running = new AtomicInteger();

  /** Runs {@code scanOf.apply(shard)} over every live record of every shard; completes with the scans, in shard order. */
  <T extends ShardScan> Future<List<T>> walk(ShardQueries shards, RoutingContext context, IntFunction<T> scanOf) {
    if (running.incrementAndGet() > AT_ONCE) {
      running.decrementAndGet();
      context.response().putHeader(RETRY_AFTER, "1");
      return Future.failedFuture(new ApiError(503, "the keys table is busy: " + AT_ONCE
          + " key scans are running; try again in a second", null));
    }
    List<T> scans = new ArrayList<>(shards.routes());
    List<Future<Void>> walks = new ArrayList<>(shards.routes());
    for (int shard = 0; shard < shards.routes(); shard++) {
      T scan = scanOf.apply(shard);
      scans.add(scan);
      walks.add(slices(shards, shard, new SlicedScan(scan), context));
    }
    return Future.all(walks).<List<T>>map(done -> scans).onComplete(done -> running.decrementAndGet());
  }

  private Future<Void> slices(ShardQueries shards, int shard, SlicedScan scan, RoutingContext context) {
    ShardBatch batch = new ShardBatch(shard);
    batch.add(scan);
    return shards.run(batch).compose(done -> {
      if (scan.finished()) {
        return Future.succeededFuture();
      }
      if (context.response().closed()) {
        return Future.failedFuture(new ApiError(499, "the client went away", null));
      }
      Promise<Void> rest = Promise.promise();
      context.vertx().setTimer(PAUSE_MILLIS, id -> slices(shards, shard, scan, context).onComplete(rest));
      return rest.future();
    });
  }
}
