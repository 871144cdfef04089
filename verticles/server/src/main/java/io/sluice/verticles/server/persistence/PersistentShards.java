package io.sluice.verticles.server.persistence;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.persist.DataFile;
import io.sluice.verticles.engine.persist.PersistenceStats;
import io.sluice.verticles.engine.persist.PersistenceWriter;
import io.sluice.verticles.engine.persist.ShardLoader;
import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The persistence of every shard of this process: loads each store from the data directory (off
 * the event loops, all shards at once) before the shards serve, then gives each its
 * {@link ShardPersistence}, written by the one {@link PersistenceWriter} of the shard verticle that
 * hosts it (a cluster's 271 partitions share their verticles' writers). What {@code /ready},
 * {@code /metrics} and the dashboard read.
 */
public final class PersistentShards {

  private static final System.Logger LOG = System.getLogger(PersistentShards.class.getName());

  private final List<ShardPersistence> shards;

  private PersistentShards(List<ShardPersistence> shards) {
    this.shards = shards;
  }

  /** No persistence: every shard is in memory only. */
  public static PersistentShards none() {
    return new PersistentShards(List.of());
  }

  /**
   * Loads every store from {@code settings}' directory and starts its log, written by the writer of
   * shard verticle {@code verticleOf(store)} (of {@code verticles}). Fails, naming the file and
   * offset, on a file that cannot be loaded.
   */
  public static Future<PersistentShards> load(Vertx vertx, PersistenceSettings settings, List<Store> stores,
                                              int verticles, IntUnaryOperator verticleOf, ValueSize valueSize,
                                              Clock clock) {
    if (!settings.enabled()) {
      return Future.succeededFuture(none());
    }
    Path dir = settings.dataDir().orElseThrow();
    long started = System.nanoTime();
    List<PersistenceWriter> writers = new ArrayList<>();
    for (int v = 0; v < verticles; v++) {
      writers.add(new PersistenceWriter(v));
    }
    List<Future<ShardPersistence>> loading = new ArrayList<>();
    for (int i = 0; i < stores.size(); i++) {
      int shard = i;
      Store store = stores.get(i);
      loading.add(vertx.executeBlocking(() -> {
        DataFile identity = new DataFile(DataFile.LOG, valueSize.bytes(), shard, stores.size(), 0);
        ShardLoader.Loaded loaded = ShardLoader.load(dir, identity, store, settings.recover());
        return new ShardPersistence(dir, identity, loaded.nextGeneration(), loaded, settings.writer(stores.size()),
            clock, writers.get(verticleOf.applyAsInt(shard)));
      }, false));
    }
    return Future.join(loading).transform(all -> {
      List<ShardPersistence> opened = new ArrayList<>();
      for (Future<ShardPersistence> shard : loading) {
        if (shard.succeeded()) {
          opened.add(shard.result());
        }
      }
      // Started when all logs are made, to write (or, on failure, close) them.
      writers.forEach(PersistenceWriter::start);
      if (all.failed()) {
        opened.forEach(PersistentShards::closeQuietly);
        return Future.failedFuture(all.cause());
      }
      long keys = stores.stream().mapToLong(Store::size).sum();
      LOG.log(System.Logger.Level.INFO, String.format("loaded %d keys from %s in %d ms (fsync %s)", keys, dir,
          (System.nanoTime() - started) / 1_000_000, settings.fsync().label()));
      return Future.succeededFuture(new PersistentShards(opened));
    });
  }

  private static void closeQuietly(ShardPersistence shard) {
    try {
      shard.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public boolean enabled() {
    return !shards.isEmpty();
  }

  /** Shard {@code index}'s persistence; only when {@link #enabled}. */
  public ShardPersistence shard(int index) {
    return shards.get(index);
  }

  public List<PersistenceStats> stats() {
    return shards.stream().map(ShardPersistence::stats).toList();
  }

  /**
   * What the dashboard's overview shows: on or off, the policy, the worst of the shards (oldest
   * snapshot, longest fsync lag), the sums, and each shard's figures.
   */
  public JsonObject overview() {
    JsonObject view = new JsonObject().put("enabled", enabled());
    if (!enabled()) {
      return view;
    }
    JsonArray perShard = new JsonArray();
    long logBytes = 0;
    long errors = 0;
    long oldestSnapshot = Long.MAX_VALUE;
    long longestSnapshot = 0;
    long worstLag = 0;
    List<PersistenceStats> all = stats();
    for (int i = 0; i < all.size(); i++) {
      PersistenceStats s = all.get(i);
      logBytes += s.logBytes();
      errors += s.errors();
      oldestSnapshot = Math.min(oldestSnapshot, s.lastSnapshotEpochMillis());
      longestSnapshot = Math.max(longestSnapshot, s.lastSnapshotMillis());
      worstLag = Math.max(worstLag, s.fsyncLagMillis());
      perShard.add(new JsonObject().put("shard", i).put("logBytes", s.logBytes())
          .put("lastSnapshotAtMillis", s.lastSnapshotEpochMillis()).put("lastSnapshotMillis", s.lastSnapshotMillis())
          .put("lastSnapshotBytes", s.lastSnapshotBytes()).put("fsyncLagMillis", s.fsyncLagMillis())
          .put("errors", s.errors()).put("failing", s.failing()).put("queuedBytes", s.queuedBytes())
          .put("queuePeakBytes", s.queuePeakBytes()).put("queueOverflows", s.overflows()));
    }
    return view.put("fsync", shards.get(0).policy().label()).put("failing", failure() != null)
        .put("error", failure()).put("logBytes", logBytes).put("errors", errors)
        .put("lastSnapshotAtMillis", oldestSnapshot).put("lastSnapshotMillis", longestSnapshot)
        .put("fsyncLagMillis", worstLag).put("shards", perShard);
  }

  /** Why the files are not whole, or null when every write so far succeeded (or was repaired). */
  public String failure() {
    for (PersistenceStats s : stats()) {
      if (s.failing()) {
        return s.lastError();
      }
    }
    return null;
  }
}
