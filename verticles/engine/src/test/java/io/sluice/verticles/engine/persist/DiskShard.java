package io.sluice.verticles.engine.persist;

import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A shard's store persisted in a directory as the server runs it (loaded, then listened to by its
 * persistence), for tests on a real disk without sockets.
 */
final class DiskShard {

  private DiskShard() {
  }

  /** Loads {@code store} from {@code dir} and persists its changes from now on, with a writer of its own. */
  static ShardPersistence open(Path dir, DataFile identity, Store store, boolean recover, WriterSettings settings,
                               Clock clock) throws Exception {
    ShardLoader.Loaded loaded = ShardLoader.load(dir, identity, store, recover);
    ShardPersistence persistence = new ShardPersistence(dir, identity, loaded.nextGeneration(), loaded, settings,
        clock);
    store.listen(persistence);
    return persistence;
  }

  /** The same, written by {@code writer} (not started yet), as a shard verticle's partitions are. */
  static ShardPersistence open(Path dir, DataFile identity, Store store, WriterSettings settings, Clock clock,
                               PersistenceWriter writer) throws Exception {
    ShardLoader.Loaded loaded = ShardLoader.load(dir, identity, store, false);
    ShardPersistence persistence = new ShardPersistence(dir, identity, loaded.nextGeneration(), loaded, settings,
        clock, writer);
    store.listen(persistence);
    return persistence;
  }

  /**
   * Takes a snapshot, driving its slices here as the shard's loop would, running {@code betweenSlices}
   * after each (the requests that run meanwhile); answers its failure, or null once it is in place.
   */
  static Throwable snapshot(ShardPersistence persistence, Store store, Runnable betweenSlices) throws Exception {
    SnapshotRun run = persistence.startSnapshot(store);
    CompletableFuture<Throwable> finished = new CompletableFuture<>();
    while (!finished.isDone()) {
      CompletableFuture<Void> written = new CompletableFuture<>();
      run.slice(() -> written.complete(null), failure -> {
        // Finished first: once woken, the loop must see that no slice is left.
        finished.complete(failure);
        written.complete(null);
      });
      written.get(10, TimeUnit.SECONDS);
      betweenSlices.run();
    }
    return finished.get();
  }
}
