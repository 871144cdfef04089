package io.sluice.verticles.engine.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain of a shard's files is checked before it loads: what a first start, a clean snapshot,
 * restarts and a crash between the steps of a rotation or a snapshot leave loads silently; a
 * snapshot or log of the chain that is missing or empty refuses the start, naming the file, unless
 * recovering, which loads the rest.
 *
 * <p>Each test starts from the files of a shard that wrote keys {@code a*} (in log 1), was restarted
 * (log 2) and took snapshot 3 (holding them), wrote {@code b*} (in log 3), was restarted, and wrote
 * {@code c*} (in log 4).
 */
class ShardChainTest {

  private static final int KEYS = 300;
  private static final long HOUR = Duration.ofHours(1).toNanos();

  @TempDir
  Path temp;

  private Path dir;

  private final ManualClock clock = new ManualClock();
  private final DataFile identity = new DataFile(DataFile.LOG, 2, 0, 1, 0);
  private final WriterSettings settings = WriterSettings.of(FsyncPolicy.EVERYSEC, HOUR);
  private Path snapshot3;
  private Path log3;
  private Path log4;
  /** Log 1 as it was before snapshot 3 replaced it. */
  private Path log1Copy;

  @BeforeEach
  void writeTheChain() throws Exception {
    dir = temp.resolve("data");
    snapshot3 = file(DataFile.SNAPSHOT, 3);
    log3 = file(DataFile.LOG, 3);
    log4 = file(DataFile.LOG, 4);
    Store store = newStore();
    ShardPersistence persistence = DiskShard.open(dir, identity, store, false, settings, clock);
    put(store, "a");
    persistence.close();
    log1Copy = Files.copy(file(DataFile.LOG, 1), temp.resolve("log1"));
    persistence = DiskShard.open(dir, identity, store = newStore(), false, settings, clock);
    assertThat(DiskShard.snapshot(persistence, store, () -> { })).isNull();
    put(store, "b");
    persistence.close();
    persistence = DiskShard.open(dir, identity, store = newStore(), false, settings, clock);
    put(store, "c");
    persistence.close();
    assertThat(names()).containsExactly(name(log3), name(snapshot3), name(log4));
  }

  @Test
  void aWholeChainAndWhatACrashBetweenRotationStepsLeavesLoadEverything() throws Exception {
    // A crash while log 5 or snapshot 5 was being made, and one after snapshot 3's rename but
    // before the files it replaced were deleted.
    Files.write(identity.withGeneration(5).temporaryIn(dir), new byte[7]);
    Files.write(identity.withKind(DataFile.SNAPSHOT).withGeneration(5).temporaryIn(dir), new byte[0]);
    Files.copy(log1Copy, file(DataFile.LOG, 1));

    Store store = newStore();
    ShardLoader.Loaded loaded = ShardLoader.load(dir, identity, store, false);
    assertThat(store.size()).isEqualTo(3 * KEYS);
    assertThat(loaded.lossy()).isFalse();
    assertThat(loaded.nextGeneration()).as("the unfinished generation 5 is made again").isEqualTo(5);
    assertThat(names()).containsExactly(name(log3), name(snapshot3), name(log4));
  }

  @Test
  void logsOfRestartsWithoutASnapshotLoadFromGenerationOne() throws Exception {
    Path other = temp.resolve("restarts");
    for (String prefix : List.of("x", "y", "z")) {
      Store store = newStore();
      ShardPersistence persistence = DiskShard.open(other, identity, store, false, settings, clock);
      put(store, prefix);
      persistence.close();
    }
    Store store = newStore();
    assertThat(ShardLoader.load(other, identity, store, false).nextGeneration()).isEqualTo(4);
    assertThat(store.size()).isEqualTo(3 * KEYS);
  }

  @Test
  void anEmptyNewestSnapshotIsRefusedNamedAndRecoveryLoadsTheLogsAfterIt() throws Exception {
    Files.write(snapshot3, new byte[0]);
    assertRefusedNaming(snapshot3, "0 bytes, shorter than the 32-byte header");
    assertRecoveryLoads("b", "c");
  }

  @Test
  void aDeletedSnapshotWhoseLogIsKeptIsRefusedNamedAndRecoveryLoadsTheLogs() throws Exception {
    Files.delete(snapshot3);
    assertRefusedNaming(snapshot3, "missing: the logs begin at generation 3");
    assertRecoveryLoads("b", "c");
  }

  @Test
  void aDeletedLogIsRefusedNamedAndRecoveryLoadsTheRest() throws Exception {
    Files.delete(log3);
    assertRefusedNaming(log3, "missing (the changes of generation 3)");
    assertRecoveryLoads("a", "c");
  }

  @Test
  void anEmptyLogIsRefusedNamedAndRecoveryLoadsTheRest() throws Exception {
    Files.write(log4, new byte[0]);
    assertRefusedNaming(log4, "0 bytes");
    assertRecoveryLoads("a", "b");
  }

  @Test
  void aSnapshotWithoutItsLogIsRefusedNamingTheLog() throws Exception {
    Files.delete(log3);
    Files.delete(log4);
    assertRefusedNaming(log3, "missing");
  }

  private void assertRefusedNaming(Path file, String problem) throws Exception {
    List<String> before = names();
    assertThatThrownBy(() -> ShardLoader.load(dir, identity, newStore(), false))
        .isInstanceOf(BrokenChainException.class)
        .hasMessageStartingWith(file + ": ")
        .hasMessageContaining(problem)
        .hasMessageContaining("--data-recover")
        .satisfies(e -> assertThat(((BrokenChainException) e).file()).isEqualTo(file));
    assertThat(names()).as("a refused start changes nothing").isEqualTo(before);
  }

  /** Recovery loads exactly the keys of {@code prefixes}, and asks for a snapshot to replace the files. */
  private void assertRecoveryLoads(String... prefixes) throws Exception {
    Store store = newStore();
    ShardLoader.Loaded loaded = ShardLoader.load(dir, identity, store, true);
    assertThat(loaded.lossy()).isTrue();
    assertThat(store.size()).isEqualTo(prefixes.length * KEYS);
    for (String prefix : prefixes) {
      byte[] key = key(prefix, KEYS - 1);
      assertThat(store.find(key, store.hash(key), clock.epochNanos())).as(prefix).isNotNull();
    }
  }

  private void put(Store store, String prefix) {
    for (int i = 0; i < KEYS; i++) {
      store.restoreCounter(key(prefix, i), 4, clock.epochNanos() + HOUR, i);
    }
  }

  private Store newStore() {
    return new Store(clock, clock.epochNanos());
  }

  private Path file(int kind, long generation) {
    return identity.withKind(kind).withGeneration(generation).in(dir);
  }

  private static String name(Path file) {
    return file.getFileName().toString();
  }

  private List<String> names() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static byte[] key(String prefix, int i) {
    return (prefix + i).getBytes(StandardCharsets.US_ASCII);
  }
}
