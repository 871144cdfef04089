package io.sluice.verticles.engine.persist;

import io.sluice.verticles.engine.time.Clock;

import java.util.function.BooleanSupplier;

/**
 * When one shard takes its next snapshot: the interval passed, the log outgrew the last snapshot,
 * or the files need a repair (retried every {@link #RETRY_NANOS}). Asked on the shard's thread.
 */
final class SnapshotSchedule {

  /** A log larger than this many times the last snapshot (and than {@link #LOG_FLOOR_BYTES}) asks for a snapshot. */
  static final int LOG_GROWTH_FACTOR = 2;
  static final long LOG_FLOOR_BYTES = 64L << 20;
  /** After a failed write, how often a repairing snapshot is tried. */
  static final long RETRY_NANOS = 5_000_000_000L;

  private final Clock clock;
  private final long intervalNanos;
  private long lastStartNanos;
  private long lastRepairNanos;
  /** Set by the shard's thread, cleared by the writer when the snapshot is done. */
  private volatile boolean running;

  SnapshotSchedule(Clock clock, long intervalNanos) {
    this.clock = clock;
    this.intervalNanos = intervalNanos;
    this.lastStartNanos = clock.epochNanos();
  }

  /**
   * True when a snapshot should start now. A repair waits until {@code caughtUp} (the writer wrote
   * what an overflowed queue held).
   */
  boolean due(Repairs repairs, BooleanSupplier caughtUp, PersistenceStats current) {
    if (running) {
      return false;
    }
    long now = clock.epochNanos();
    if (repairs.needed()) {
      if (now - lastRepairNanos < RETRY_NANOS || !caughtUp.getAsBoolean()) {
        return false;
      }
      lastRepairNanos = now;
      return true;
    }
    return now - lastStartNanos >= intervalNanos
        || current.logBytes() > Math.max(LOG_FLOOR_BYTES, LOG_GROWTH_FACTOR * current.lastSnapshotBytes());
  }

  void started() {
    running = true;
    lastStartNanos = clock.epochNanos();
  }

  /** On the writer's thread, once the snapshot is in place or abandoned. */
  void finished() {
    running = false;
  }
}
