package io.sluice.verticles.server.persistence;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.engine.persist.PersistenceStats;
import io.sluice.verticles.engine.persist.ShardPersistence;

import java.util.function.ToDoubleFunction;

/** The {@code sluice_persistence_*} series, one of each per shard. */
public final class PersistenceMetrics {

  private PersistenceMetrics() {
  }

  public static void bind(MeterRegistry registry, PersistentShards shards) {
    for (int i = 0; i < shards.stats().size(); i++) {
      ShardPersistence shard = shards.shard(i);
      String tag = Integer.toString(i);
      gauge(registry, tag, shard, "sluice.persistence.log.bytes", "Bytes of the append-only logs since the last snapshot",
          s -> s.logBytes());
      gauge(registry, tag, shard, "sluice.persistence.last.snapshot.timestamp.seconds",
          "When the last snapshot completed (Unix time); 0 before the first", s -> s.lastSnapshotEpochMillis() / 1000.0);
      gauge(registry, tag, shard, "sluice.persistence.last.snapshot.duration.seconds",
          "How long the last snapshot took, from the log's rotation to its rename", s -> s.lastSnapshotMillis() / 1000.0);
      gauge(registry, tag, shard, "sluice.persistence.last.snapshot.bytes", "Size of the last snapshot",
          s -> s.lastSnapshotBytes());
      gauge(registry, tag, shard, "sluice.persistence.snapshot.worst.slice.seconds",
          "The longest a snapshot slice held the shard", s -> s.worstSliceNanos() / 1e9);
      gauge(registry, tag, shard, "sluice.persistence.fsync.lag.seconds",
          "Age of the oldest write not yet forced to disk; 0 when none", s -> s.fsyncLagMillis() / 1000.0);
      gauge(registry, tag, shard, "sluice.persistence.failing",
          "1 while a write has failed and no snapshot has repaired the files since", s -> s.failing() ? 1 : 0);
      gauge(registry, tag, shard, "sluice.persistence.queue.bytes",
          "Changes waiting in memory for the writer (bounded by --persistence-queue-bytes)", s -> s.queuedBytes());
      gauge(registry, tag, shard, "sluice.persistence.queue.peak.bytes",
          "The most changes that ever waited in memory for the writer", s -> s.queuePeakBytes());
      FunctionCounter.builder("sluice.persistence.errors", shard, s -> s.stats().errors())
          .description("Failed writes to the data directory (full disk, I/O errors), and overflows of the writer's queue")
          .tag("shard", tag)
          .register(registry);
      FunctionCounter.builder("sluice.persistence.queue.overflows", shard, s -> s.stats().overflows())
          .description("Times the disk fell behind by more than --persistence-queue-bytes and a snapshot had to repair")
          .tag("shard", tag)
          .register(registry);
    }
  }

  private static void gauge(MeterRegistry registry, String tag, ShardPersistence shard, String name,
                            String description, ToDoubleFunction<PersistenceStats> value) {
    Gauge.builder(name, shard, s -> value.applyAsDouble(s.stats()))
        .description(description)
        .tag("shard", tag)
        .register(registry);
  }
}
