package io.sluice.verticles.engine.persist;

import io.sluice.verticles.engine.time.Clock;

import java.io.IOException;
import java.util.List;

/**
 * What the writer does for one shard, on the writer's thread only: runs the operations its
 * {@link LogAppender} queued on the log file and the snapshot being written, forces the log as the
 * {@link FsyncPolicy} says, releases the replies that waited for it, and keeps the figures. A failed
 * write is logged, counted and shown ({@link PersistenceStats#failing}) and asks for a repair.
 */
final class ShardDisk {

  /** How often {@code everysec} forces the log: a write older than a second is on disk. */
  static final long FSYNC_PERIOD_NANOS = 500_000_000L;

  private final int shard;
  private final FsyncPolicy policy;
  private final ShardFiles files;
  private final FailureLog failures;
  private final Repairs repairs;
  private final Clock clock;
  private final LogFile log;
  /** The snapshot being written, null for none. */
  private SnapshotFile snapshot;
  private long lastFsyncNanos = System.nanoTime();

  // Written here, read anywhere.
  private volatile PersistenceStats stats;

  ShardDisk(ShardFiles files, int shard, FsyncPolicy policy, FailureLog failures, Repairs repairs,
            PersistenceStats initial, Clock clock) {
    this.shard = shard;
    this.policy = policy;
    this.files = files;
    this.failures = failures;
    this.repairs = repairs;
    this.clock = clock;
    this.stats = initial;
    this.log = new LogFile(files, this::failed, repairs::broke);
  }

  PersistenceStats stats() {
    return stats;
  }

  /**
   * One turn of the writer for this shard: writes what {@code appender} queued, forces, releases,
   * and, when the shard's log is closing or {@code stop}, closes the files (a snapshot in progress is
   * abandoned: the logs hold everything). {@code work} and {@code released} are the writer's
   * scratch lists, left empty. Answers whether the files are closed.
   */
  boolean turn(LogAppender appender, List<WriterOp> work, List<Runnable> released, boolean stop) {
    boolean closing = appender.takeWork(work) || stop;
    long covered = -1;
    for (WriterOp op : work) {
      covered = Math.max(covered, run(op, appender));
    }
    work.clear();
    if (log.unsynced() && (closing || policy == FsyncPolicy.ALWAYS
        || (policy == FsyncPolicy.EVERYSEC && System.nanoTime() - lastFsyncNanos >= FSYNC_PERIOD_NANOS))) {
      log.force();
      lastFsyncNanos = System.nanoTime();
    }
    appender.release(covered, log.unsynced(), released);
    publish(null);
    if (closing) {
      closeFiles();
    }
    return closing;
  }

  /** Runs one queued operation; returns the append position it covers (-1 for none). */
  private long run(WriterOp op, LogAppender appender) {
    if (op instanceof WriterOp.Images images) {
      addLogBytes(log.write(images.bytes()));
      appender.written(images.bytes().readableBytes());
      return images.mark();
    } else if (op instanceof WriterOp.Rotate rotate) {
      addLogBytes(log.rotate(rotate.generation()));
    } else if (op instanceof WriterOp.SnapshotStart start) {
      snapshot = SnapshotFile.start(files, start.generation(), this::failed);
    } else if (op instanceof WriterOp.SnapshotPart part) {
      if (snapshot != null) {
        part.blocks().forEach(snapshot::write);
      }
      part.written().run();
    } else if (op instanceof WriterOp.SnapshotEnd end) {
      end.done().accept(endSnapshot(end.generation(), end.worstSliceNanos()));
    }
    return -1;
  }

  /** Makes the snapshot whole and drops what it replaces; the failure, or null. */
  private Throwable endSnapshot(long generation, long worstSliceNanos) {
    SnapshotFile done = snapshot;
    snapshot = null;
    if (done == null || done.generation() != generation) {
      IOException e = new IOException("snapshot " + generation + " is not the one being written");
      failed("completing " + files.snapshotPath(generation), e);
      return e;
    }
    IOException failure = done.complete();
    if (failure != null) {
      return failure;
    }
    // A log that misses changes after this snapshot began is not repaired by it.
    if (repairs.repairedBy(generation)) {
      failures.repaired();
    }
    stats = stats.afterSnapshot(log.size(), clock.epochNanos() / 1_000_000, done.tookMillis(), done.bytes(),
        worstSliceNanos, log.broken());
    return null;
  }

  private void closeFiles() {
    log.close();
    if (snapshot != null) {
      snapshot.abandon();
      snapshot = null;
    }
  }

  private void addLogBytes(long bytes) {
    stats = stats.withLogBytes(stats.logBytes() + bytes);
  }

  /** Refreshes the fsync lag, and records a failure when {@code error} is not null. */
  private void publish(String error) {
    stats = stats.withLag(log.lagMillis(), error);
  }

  private void failed(String what, IOException e) {
    String message = "persistence of shard " + shard + ": failed " + what + ": " + e;
    failures.failed(message, " (requests are still answered; the next snapshot repairs the files)");
    repairs.failed();
    publish(message);
  }
}
