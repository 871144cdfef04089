package io.sluice.verticles.benchmarks.jmh;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.CollidingKeys;
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
 * A shard running batches of 64 requests against a store of {@code keys} counters. {@code shape}
 * {@code numbered} keys are a letter and 15 digits; {@code colliding} keys are 16 bytes too, all
 * with one shard hash ({@link CollidingKeys}), as a hash-flooding client sends them (issue 12).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ShardBenchmark {

  static final int BATCH = 64;
  private static final int SHARD_HASH = 0x5eed;

  @Param({"10000", "1000000"})
  public int keys;

  @Param({"numbered", "colliding"})
  public String shape;

  private boolean colliding;
  private ThrottrShard shard;
  private byte[][] keyBytes;
  private final SplittableRandom random = new SplittableRandom(7);
  private int fresh;

  @Setup(Level.Trial)
  public void fill() {
    colliding = shape.equals("colliding");
    shard = new ThrottrShard(new Store(Clock.SYSTEM, Clock.SYSTEM.epochNanos()), ValueSize.UINT64);
    keyBytes = new byte[keys][];
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < keys; i++) {
      keyBytes[i] = key('k', i);
      batch.add(new Request.Insert(Long.MAX_VALUE, TtlUnit.HOURS.code(), 10, keyBytes[i]));
    }
    shard.execute(batch);
  }

  /** Both shapes are 16 bytes: a colliding key is an 8-byte prefix and 8 solved bytes. */
  private byte[] key(char prefix, int number) {
    return colliding
        ? CollidingKeys.key(new byte[] {(byte) prefix, '0', '0', '0', '0', '0', '0', '0'}, SHARD_HASH, number)
        : Keys.numbered(prefix, number);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public ShardBatch updateQuota() {
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < BATCH; i++) {
      batch.add(new Request.Update(0, 2, 1, keyBytes[random.nextInt(keys)]));
    }
    shard.execute(batch);
    return batch;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public ShardBatch query() {
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < BATCH; i++) {
      batch.add(new Request.Query(keyBytes[random.nextInt(keys)]));
    }
    shard.execute(batch);
    return batch;
  }

  /** New keys with a 1 ms TTL, so the store does not grow without bound over the run. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public ShardBatch insertNewKeys() {
    ShardBatch batch = new ShardBatch(0);
    for (int i = 0; i < BATCH; i++) {
      batch.add(new Request.Insert(10, TtlUnit.MILLISECONDS.code(), 1, key('n', fresh++)));
    }
    shard.execute(batch);
    shard.store().sweep(256);
    return batch;
  }
}
