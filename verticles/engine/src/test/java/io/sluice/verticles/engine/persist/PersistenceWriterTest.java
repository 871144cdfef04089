package io.sluice.verticles.engine.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer thread serving the logs of several shards, as a shard verticle's partitions are in a
 * cluster: every log is written, each reply waits for its own log's fsync, each log closes on its
 * own, and the thread ends with the last.
 */
class PersistenceWriterTest {

  private static final int SHARDS = 3;
  /** A verticle index no other test's writer has, to find this one's thread by its name. */
  private static final int VERTICLE = 41;
  private static final long MINUTE = Duration.ofMinutes(1).toNanos();

  @TempDir
  Path dir;

  private final ManualClock clock = new ManualClock();

  private ShardPersistence open(int shard, Store store, FsyncPolicy policy, PersistenceWriter writer)
      throws Exception {
    return DiskShard.open(dir, identity(shard), store, WriterSettings.of(policy, Duration.ofMinutes(5).toNanos()),
        clock, writer);
  }

  /** One log per shard, each with a fresh store (added to {@code stores}), all served by {@code writer}. */
  private List<ShardPersistence> openAll(FsyncPolicy policy, PersistenceWriter writer, List<Store> stores)
      throws Exception {
    List<ShardPersistence> logs = new ArrayList<>();
    for (int shard = 0; shard < SHARDS; shard++) {
      Store store = new Store(clock, clock.epochNanos());
      stores.add(store);
      logs.add(open(shard, store, policy, writer));
    }
    return logs;
  }

  private static DataFile identity(int shard) {
    return new DataFile(DataFile.LOG, 2, shard, SHARDS, 0);
  }

  @Test
  void oneThreadWritesEveryLogAndEndsOnceTheLastIsClosed() throws Exception {
    PersistenceWriter writer = new PersistenceWriter(VERTICLE);
    List<Store> stores = new ArrayList<>();
    List<ShardPersistence> logs = openAll(FsyncPolicy.EVERYSEC, writer, stores);
    writer.start();
    assertThat(writerThreads()).hasSize(1);
    Thread thread = writerThreads().get(0);

    for (int shard = 0; shard < SHARDS; shard++) {
      stores.get(shard).restoreCounter(key("before-" + shard), 4, clock.epochNanos() + MINUTE, shard);
    }
    logs.get(0).close();
    // The others are still written after one closed.
    for (int shard = 1; shard < SHARDS; shard++) {
      stores.get(shard).restoreCounter(key("after-" + shard), 4, clock.epochNanos() + MINUTE, 10 + shard);
    }
    assertThat(thread.isAlive()).as("the writer, while two of its logs are open").isTrue();
    logs.get(1).close();
    logs.get(2).close();
    thread.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(thread.isAlive()).as("the writer, once its last log is closed").isFalse();

    for (int shard = 0; shard < SHARDS; shard++) {
      Store loaded = new Store(clock, clock.epochNanos());
      ShardLoader.load(dir, identity(shard), loaded, false);
      assertThat(counter(loaded, "before-" + shard)).isEqualTo(shard);
      assertThat(counter(loaded, "after-" + shard)).isEqualTo(shard == 0 ? -1 : 10 + shard);
    }
  }

  @Test
  void withAlwaysEachLogsRepliesWaitForItsOwnFsync() throws Exception {
    PersistenceWriter writer = new PersistenceWriter(VERTICLE);
    List<Store> stores = new ArrayList<>();
    List<ShardPersistence> logs = openAll(FsyncPolicy.ALWAYS, writer, stores);
    writer.start();
    List<CompletableFuture<Long>> released = new ArrayList<>();
    for (int shard = 0; shard < SHARDS; shard++) {
      stores.get(shard).restoreCounter(key("k"), 4, clock.epochNanos() + MINUTE, shard);
      int index = shard;
      CompletableFuture<Long> reply = new CompletableFuture<>();
      logs.get(shard).whenDurable(() -> reply.complete(logSize(index)));
      released.add(reply);
    }
    for (CompletableFuture<Long> reply : released) {
      // Released after the fsync: the log then holds header, block header and image.
      assertThat(reply.get(10, TimeUnit.SECONDS)).isGreaterThan((long) DataFile.HEADER_BYTES + Block.HEADER_BYTES);
    }
    for (ShardPersistence log : logs) {
      log.close();
    }
  }

  private static List<Thread> writerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals(PersistenceWriter.THREAD_NAME + VERTICLE)).toList();
  }

  private long logSize(int shard) {
    String prefix = String.format("shard-%04d.", shard);
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".log"))
          .mapToLong(p -> p.toFile().length()).sum();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The counter's value, -1 when the key is not there. */
  private long counter(Store store, String key) {
    byte[] bytes = key(key);
    Record record = store.find(bytes, store.hash(bytes), clock.epochNanos());
    return record == null ? -1 : record.counter();
  }

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
