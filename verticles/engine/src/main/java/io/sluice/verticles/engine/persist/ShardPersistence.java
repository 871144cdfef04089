package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.ChangeListener;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.Clock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * One shard's append-only log and snapshots (a single node's shard, or a cluster's partition). The
 * shard's thread only appends record images to a memory buffer ({@link LogAppender}: it listens to
 * the store's change feed); the {@link PersistenceWriter} of its shard verticle writes them to the
 * log file and forces it to disk as the {@link FsyncPolicy} says ({@link ShardDisk}), so the shard
 * never waits for the disk. With {@link FsyncPolicy#ALWAYS}, {@link #whenDurable} holds a reply
 * back until the fsync that covers every change made before it: one fsync covers all the changes
 * gathered while the previous one ran (group commit).
 *
 * <p>A snapshot (see {@link SnapshotRun}) rotates to a new log first, then streams the shard's
 * records, in slices, to a temporary file that is renamed into place when whole; only then are the
 * older snapshot and logs deleted. {@link SnapshotSchedule} says when.
 *
 * <p>A failed write, or a queue past its bound, is logged, counted and shown
 * ({@link PersistenceStats#failing}), and never stops the shard: the log is not written again until
 * the next snapshot makes the files whole ({@link Repairs}), which {@link #snapshotDue} asks for at
 * once.
 */
public final class ShardPersistence implements ChangeListener {

  private final FsyncPolicy policy;
  private final PersistenceWriter writer;
  private final Repairs repairs;
  private final LogAppender appender;
  private final ShardDisk disk;
  private final SnapshotSchedule schedule;
  private final CountDownLatch closed = new CountDownLatch(1);

  /**
   * A log with a writer thread of its own, started (one shard on its own: tests, benchmarks). Starts
   * a log of generation {@code firstGeneration} in {@code dir} (see {@link ShardLoader}, which says
   * which comes next).
   *
   * @param identity what the files' headers carry; its kind and generation are ignored
   * @param loaded   what loading found: the size of the snapshot and logs it read
   */
  public ShardPersistence(Path dir, DataFile identity, long firstGeneration, ShardLoader.Loaded loaded,
                          WriterSettings settings, Clock clock) {
    this(dir, identity, firstGeneration, loaded, settings, clock, new PersistenceWriter(identity.shard()));
    writer.start();
  }

  /** The same, written by {@code writer}, which serves it from its start. */
  public ShardPersistence(Path dir, DataFile identity, long firstGeneration, ShardLoader.Loaded loaded,
                          WriterSettings settings, Clock clock, PersistenceWriter writer) {
    this.policy = settings.fsync();
    this.writer = writer;
    FailureLog failures = new FailureLog(identity.shard());
    // Files that recovery read only in part are replaced by a snapshot at once.
    this.repairs = new Repairs(loaded.lossy());
    this.appender = new LogAppender(identity.shard(), settings, firstGeneration, repairs, failures, writer);
    this.disk = new ShardDisk(new ShardFiles(dir, identity, settings.files()), identity.shard(), policy, failures,
        repairs, new PersistenceStats(loaded.logBytes(), loaded.snapshotEpochMillis(), 0, loaded.snapshotBytes(), 0,
        0, 0, false, null), clock);
    this.schedule = new SnapshotSchedule(clock, settings.snapshotIntervalNanos());
    writer.serve(this);
  }

  public FsyncPolicy policy() {
    return policy;
  }

  /** The writer's figures, with the queue's and an overflow not yet repaired. */
  public PersistenceStats stats() {
    return appender.withQueue(disk.stats());
  }

  @Override
  public void changed(Record record) {
    appender.changed(record);
  }

  @Override
  public void removed(Record record) {
    appender.removed(record);
  }

  /**
   * Runs {@code release} once every change made so far is as safe as the policy promises: at once
   * with {@code everysec} and {@code no}; with {@code always}, after the fsync covering them,
   * then on the writer's thread.
   */
  public void whenDurable(Runnable release) {
    appender.whenDurable(release);
  }

  /**
   * True when the shard should start a snapshot now: the interval has passed, the log outgrew the
   * last snapshot, or a failed write or an overflow needs the files made whole again (once the
   * writer has written what it held). Call on the shard's thread.
   */
  public boolean snapshotDue() {
    return schedule.due(repairs, appender::caughtUp, disk.stats());
  }

  /** Starts a snapshot: call on the shard's thread, then drive the run's slices there. */
  public SnapshotRun startSnapshot(Store store) {
    schedule.started();
    return new SnapshotRun(this, store, appender.startSnapshot());
  }

  void snapshotPart(List<ByteBuf> blocks, Runnable written) {
    appender.enqueue(new WriterOp.SnapshotPart(blocks, written));
  }

  void finishSnapshot(long snapshotGeneration, long worstSliceNanos, Consumer<Throwable> done) {
    appender.enqueue(new WriterOp.SnapshotEnd(snapshotGeneration, worstSliceNanos, failure -> {
      schedule.finished();
      done.accept(failure);
    }));
  }

  /**
   * Writes and forces everything appended, closes the files (a snapshot in progress is abandoned:
   * the logs hold everything); the writer ends with the last of its logs. Blocks: call off the
   * event loop, once the shard takes no more work.
   */
  public void close() throws InterruptedException {
    appender.close();
    closed.await();
  }

  /** The writer's: true when it has something to do for this log before its next period. */
  boolean hasWork() {
    return appender.hasWork();
  }

  /** The writer's: one turn for this log; true once its files are closed. */
  boolean writeTurn(List<WriterOp> work, List<Runnable> released, boolean stop) {
    if (!disk.turn(appender, work, released, stop)) {
      return false;
    }
    closed.countDown();
    return true;
  }

  /** The writer's thread ended without closing this log. */
  void writerGone() {
    closed.countDown();
  }
}
