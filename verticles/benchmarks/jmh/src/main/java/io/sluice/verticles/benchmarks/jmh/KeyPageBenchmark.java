package io.sluice.verticles.benchmarks.jmh;

import io.sluice.verticles.engine.browse.KeyPageScan;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.SlicedScan;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One slice of a dashboard key page over a shard of 1,000,000 counters: how long a page holds the
 * shard at a time ({@link SlicedScan#WORK_PER_SLICE} buckets and records). {@code search} empty
 * keeps the first 50 keys; "7" also tests every key for the text.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class KeyPageBenchmark {

  private static final int KEYS = 1_000_000;

  @Param({"", "7"})
  public String search;

  private ThrottrShard shard;
  private SlicedScan scan;

  @Setup(Level.Trial)
  public void fill() {
    shard = new ThrottrShard(new Store(Clock.SYSTEM, Clock.SYSTEM.epochNanos()), ValueSize.UINT64);
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < KEYS; i++) {
      batch.add(new Request.Insert(1, TtlUnit.HOURS.code(), 10, Keys.numbered('k', i)));
    }
    shard.execute(batch);
    scan = newScan();
  }

  private SlicedScan newScan() {
    return new SlicedScan(new KeyPageScan(search.getBytes(), null, 50));
  }

  /** The next slice of an endless walk: a new page starts when one is complete. */
  @Benchmark
  public ShardBatch slice() {
    if (scan.finished()) {
      scan = newScan();
    }
    ShardBatch batch = new ShardBatch(0);
    batch.add(scan);
    shard.execute(batch);
    return batch;
  }
}
