package io.sluice.verticles.benchmarks.jmh;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.persist.DataFile;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.engine.persist.ShardLoader;
import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.persist.SnapshotRun;
import io.sluice.verticles.engine.persist.WriterSettings;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Persistence over a shard of 1,000,000 counters: {@code slice} is one slice of a snapshot, what a
 * snapshot holds its shard for at a time ({@link SnapshotRun#WORK_PER_SLICE} buckets and records);
 * {@code load} reads the shard back from a data directory at start (1,000,000 images, CRC32C per
 * block, into an empty store).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SnapshotBenchmark {

  private static final int KEYS = 1_000_000;
  private static final DataFile SHARD = new DataFile(DataFile.LOG, 8, 0, 1, 0);

  private Store store;
  private int cursor;
  private Path dir;

  @Setup(Level.Trial)
  public void fill() throws Exception {
    store = new Store(Clock.SYSTEM, Clock.SYSTEM.epochNanos());
    dir = Files.createTempDirectory("sluice-snapshot-benchmark");
    ShardLoader.Loaded empty = ShardLoader.load(dir, SHARD, store, false);
    ShardPersistence log = new ShardPersistence(dir, SHARD, empty.nextGeneration(), empty,
        WriterSettings.of(FsyncPolicy.NO, TimeUnit.HOURS.toNanos(1)), Clock.SYSTEM);
    store.listen(log);
    ThrottrShard shard = new ThrottrShard(store, ValueSize.UINT64);
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < KEYS; i++) {
      batch.add(new Request.Insert(1, TtlUnit.HOURS.code(), 10, Keys.numbered('k', i)));
    }
    shard.execute(batch);
    log.close();
  }

  @TearDown(Level.Trial)
  public void clean() throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /** The next slice of an endless snapshot walk. */
  @Benchmark
  public List<ByteBuf> slice() {
    List<ByteBuf> images = new ArrayList<>();
    cursor = SnapshotRun.image(store, cursor, images);
    return images;
  }

  /** True when the last slice ended a walk (the next starts a new one). */
  boolean walkComplete() {
    return cursor == 0;
  }

  /** Loading the shard's 1,000,000 records from its log at start. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 2)
  @Measurement(iterations = 5)
  public Store load() throws Exception {
    Store loaded = new Store(Clock.SYSTEM, Clock.SYSTEM.epochNanos());
    ShardLoader.load(dir, SHARD, loaded, false);
    return loaded;
  }
}
