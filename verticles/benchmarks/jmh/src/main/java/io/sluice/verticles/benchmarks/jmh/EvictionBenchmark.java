package io.sluice.verticles.benchmarks.jmh;

import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.engine.time.Clock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * INSERTs of new keys into a shard holding 10,000 counters (TTLs of 1 to 3,600 s), in batches of
 * 64: {@code unbounded}, where the new keys expire after 1 ms and the sweep reclaims them (as
 * {@link ShardBenchmark#insertNewKeys}), against {@code max-keys}, the same store at its bound of
 * 10,000, where every insert evicts the sampled record closest to expiry. Both tables hold the same
 * 10,000 records: the difference is the price of eviction on the insert path.
 *
 * <p>{@link #main} compares the two by the thread's CPU time instead, interleaved in short rounds:
 * on a machine shared with other work, wall-clock throughput measures the neighbours.
 * {@code java -cp verticles/benchmarks/jmh/target/benchmarks.jar io.sluice.verticles.benchmarks.jmh.EvictionBenchmark [rounds]}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EvictionBenchmark {

  static final int BATCH = 64;
  static final int KEYS = 10_000;

  @Param({"unbounded", "max-keys"})
  public String limits;

  private boolean bounded;
  private ThrottrShard shard;
  private final SplittableRandom random = new SplittableRandom(7);
  private int fresh;

  @Setup(Level.Trial)
  public void fill() {
    bounded = limits.equals("max-keys");
    StoreLimits storeLimits = bounded ? new StoreLimits(KEYS, StoreLimits.UNLIMITED, Eviction.VOLATILE_TTL) : StoreLimits.unlimited();
    shard = new ThrottrShard(new Store(Clock.SYSTEM, Clock.SYSTEM.epochNanos(), storeLimits), ValueSize.UINT64);
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < KEYS; i++) {
      batch.add(new Request.Insert(10, TtlUnit.SECONDS.code(), 1 + random.nextInt(3_600), Keys.numbered('k', i)));
    }
    shard.execute(batch);
  }

  /** Rounds of 2,000 batches per setting, alternating; prints CPU nanoseconds per insert of each. */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    EvictionBenchmark[] settings = {new EvictionBenchmark(), new EvictionBenchmark()};
    settings[0].limits = "unbounded";
    settings[1].limits = "max-keys";
    long[] nanos = new long[2];
    for (EvictionBenchmark setting : settings) {
      setting.fill();
    }
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < settings.length; i++) {
        long start = cpu.getCurrentThreadCpuTime();
        for (int batch = 0; batch < 2_000; batch++) {
          settings[i].insertNewKeys();
        }
        // The first quarter of the rounds is warm-up.
        if (round >= rounds / 4) {
          nanos[i] += cpu.getCurrentThreadCpuTime() - start;
        }
      }
    }
    long inserts = (long) (rounds - rounds / 4) * 2_000 * BATCH;
    System.out.printf("CPU per INSERT: unbounded %.0f ns, at the bound (evicting) %.0f ns: %.0f%% of unbounded's throughput%n",
        (double) nanos[0] / inserts, (double) nanos[1] / inserts, 100.0 * nanos[0] / nanos[1]);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public ShardBatch insertNewKeys() {
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < BATCH; i++) {
      batch.add(bounded
          ? new Request.Insert(10, TtlUnit.SECONDS.code(), 1 + random.nextInt(3_600), Keys.numbered('n', fresh++))
          : new Request.Insert(10, TtlUnit.MILLISECONDS.code(), 1, Keys.numbered('n', fresh++)));
    }
    shard.execute(batch);
    if (!bounded) {
      shard.store().sweep(256);
    }
    return batch;
  }
}
