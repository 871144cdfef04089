package io.sluice.verticles.engine.persist;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shard's log and snapshots on a real disk, without sockets: what a store did comes back from its
 * files, through a snapshot taken while it kept changing, and expired records stay gone.
 */
class ShardPersistenceTest {

  private static final long MINUTE = Duration.ofMinutes(1).toNanos();

  @TempDir
  Path dir;

  private final ManualClock clock = new ManualClock();
  private final DataFile identity = new DataFile(DataFile.LOG, 2, 0, 1, 0);

  private ShardPersistence open(Store store, FsyncPolicy policy) throws Exception {
    return DiskShard.open(dir, identity, store, false, WriterSettings.of(policy, Duration.ofMinutes(5).toNanos()),
        clock);
  }

  private Store newStore() {
    return new Store(clock, clock.epochNanos());
  }

  @Test
  void whatAStoreDidComesBackAfterCloseAndASnapshotTakenWhileItChangesIsExact() throws Exception {
    Store store = newStore();
    ShardPersistence persistence = open(store, FsyncPolicy.EVERYSEC);
    Random random = new Random(7);
    for (int i = 0; i < 60_000; i++) {
      change(store, random);
    }
    // Changing the store between the slices, as requests would.
    int[] slices = {0};
    assertThat(DiskShard.snapshot(persistence, store, () -> {
      slices[0]++;
      for (int i = 0; i < 500; i++) {
        change(store, random);
      }
    })).isNull();
    assertThat(slices[0]).isGreaterThan(1);
    for (int i = 0; i < 1_000; i++) {
      change(store, random);
    }
    persistence.close();
    assertThat(names()).containsExactly("shard-0000.0000000000000002.log", "shard-0000.0000000000000002.snapshot");

    Store loaded = newStore();
    open(loaded, FsyncPolicy.EVERYSEC).close();
    assertSame(contents(loaded), contents(store));
  }

  @Test
  void recordsThatExpiredWhileDownAreGoneAndTheOthersKeepTheirAbsoluteExpiry() throws Exception {
    Store store = newStore();
    ShardPersistence persistence = open(store, FsyncPolicy.NO);
    store.restoreCounter(key("short"), 4, clock.epochNanos() + MINUTE / 2, 5);
    store.restoreCounter(key("long"), 4, clock.epochNanos() + 2 * MINUTE, 9);
    persistence.close();

    clock.advance(Duration.ofMinutes(1));
    Store loaded = newStore();
    open(loaded, FsyncPolicy.NO).close();
    assertThat(contents(loaded)).containsOnlyKeys("long");
    assertThat(loaded.find(key("long"), loaded.hash(key("long")), clock.epochNanos()).expiresAtNanos())
        .isEqualTo(clock.epochNanos() + MINUTE);
  }

  @Test
  void withAlwaysAReplyIsReleasedOnlyOnceItsChangeIsOnDisk() throws Exception {
    Store store = newStore();
    ShardPersistence persistence = open(store, FsyncPolicy.ALWAYS);
    CompletableFuture<Void> nothingPending = new CompletableFuture<>();
    persistence.whenDurable(() -> nothingPending.complete(null));
    assertThat(nothingPending).isDone();

    store.restoreCounter(key("k"), 4, clock.epochNanos() + MINUTE, 1);
    CompletableFuture<Long> released = new CompletableFuture<>();
    persistence.whenDurable(() -> released.complete(logSize()));
    // Released on the writer's thread after the fsync: the log then holds header, block header and image.
    assertThat(released.get(10, TimeUnit.SECONDS)).isGreaterThan((long) DataFile.HEADER_BYTES + Block.HEADER_BYTES);
    persistence.close();
  }

  /** Compares the differences only: a failure then says which keys differ, not a million that agree. */
  private static void assertSame(TreeMap<String, String> actual, TreeMap<String, String> expected) {
    TreeMap<String, String> wrong = new TreeMap<>();
    expected.forEach((key, image) -> {
      if (!image.equals(actual.get(key))) {
        wrong.put(key, "expected " + image + ", loaded " + actual.get(key));
      }
    });
    actual.keySet().stream().filter(key -> !expected.containsKey(key)).limit(10)
        .forEach(key -> wrong.put(key, "loaded but gone: " + actual.get(key)));
    assertThat(wrong.entrySet().stream().limit(10).toList()).isEmpty();
    assertThat(actual).hasSameSizeAs(expected);
  }

  private long logSize() {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void change(Store store, Random random) {
    byte[] key = key("k" + random.nextInt(40_000));
    switch (random.nextInt(4)) {
      case 0 -> store.restoreRemoval(key);
      case 1 -> store.restoreBuffer(key, 4, store.now() + MINUTE, new byte[random.nextInt(20)]);
      default -> store.restoreCounter(key, 4, store.now() + MINUTE, random.nextInt(1000));
    }
  }

  private List<String> names() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static TreeMap<String, String> contents(Store store) {
    TreeMap<String, String> all = new TreeMap<>();
    store.forEachLive(record -> {
      ByteBuf image = Unpooled.buffer();
      RecordImage.writeState(image, record);
      all.put(new String(record.key(), StandardCharsets.UTF_8), ByteBufUtil.hexDump(image));
    });
    return all;
  }

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
