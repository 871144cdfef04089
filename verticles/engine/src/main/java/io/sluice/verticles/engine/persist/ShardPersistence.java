package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.ChangeListener;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.time.Clock;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One shard's append-only log and snapshots. The shard's thread only appends record images to a
 * memory buffer (it listens to the store's change feed); a writer thread of its own writes them to
 * the log file and forces it to disk as the {@link FsyncPolicy} says, so the shard never waits for
 * the disk. With {@link FsyncPolicy#ALWAYS}, {@link #whenDurable} holds a reply back until the
 * fsync that covers every change made before it: one fsync covers all the changes gathered while
 * the previous one ran (group commit).
 *
 * <p>A snapshot (see {@link SnapshotRun}) rotates to a new log first, then streams the shard's
 * records, in slices, to a temporary file that is renamed into place when whole; only then are the
 * older snapshot and logs deleted.
 *
 * <p>A failed write is logged, counted and shown ({@link PersistenceStats#failing}), and never
 * stops the shard: the log is not written again until the next snapshot makes the files whole,
 * which {@link #snapshotDue} asks for at once.
 *
 * <p>The images waiting for the writer are bounded ({@link WriterSettings#queueLimitBytes}): a disk
 * slower than the changes for long is treated like a failed write. The waiting images are dropped
 * (the log now has a gap), the shard stops logging, and once the writer has written what it held a
 * snapshot repairs the files; logging resumes with that snapshot's new log. Memory stays bounded
 * and the shard never waits.
 */
public final class ShardPersistence implements ChangeListener {

  /** How often the writer hands the log to the operating system: what kill -9 can lose at most. */
  static final long WRITE_PERIOD_MILLIS = 100;
  /** How often {@code everysec} forces the log: a write older than a second is on disk. */
  static final long FSYNC_PERIOD_NANOS = 500_000_000L;
  /** A log larger than this many times the last snapshot (and than {@link #LOG_FLOOR_BYTES}) asks for a snapshot. */
  static final int LOG_GROWTH_FACTOR = 2;
  static final long LOG_FLOOR_BYTES = 64L << 20;
  /** After a failed write, how often a repairing snapshot is tried. */
  static final long RETRY_NANOS = 5_000_000_000L;

  private final DataFile identity;
  private final FsyncPolicy policy;
  private final Clock clock;
  private final long snapshotIntervalNanos;
  private final long queueLimitBytes;
  private final ShardFiles files;
  private final FailureLog failures;
  private final Thread writer;

  // Shared between the shard's thread and the writer, under lock.
  private final Object lock = new Object();
  private ByteBuf pending = newChunk();
  /** Image bytes handed to the log since start: the position a reply waits for. */
  private long appended;
  /** Image bytes the policy counts as safe (forced with always). */
  private long durable;
  private final ArrayDeque<Op> ops = new ArrayDeque<>();
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private long generation;
  private boolean closing;
  /** Image bytes appended and not yet written (or dropped): what the writer's queue holds. */
  private long queuedBytes;
  /** The queue overflowed: nothing is appended until a snapshot starts a new log. */
  private boolean overflowing;
  /** The newest generation whose log misses changes (a failed write, an overflow); -1 for none. */
  private long brokenGeneration = -1;
  /** Why the queue overflowed, until a snapshot repairs it; null when it did not. */
  private String overflowError;
  /** Replies an overflow freed from waiting for the disk; run by the next {@link #whenDurable}. */
  private List<Runnable> releasable = new ArrayList<>();
  private long queuePeakBytes;
  private long overflows;

  // The shard's thread only.
  private long lastSnapshotStartNanos;
  private long lastRepairNanos;
  /** Set by the shard's thread, cleared by the writer when the snapshot is done. */
  private volatile boolean snapshotRunning;

  // The writer thread only.
  private final LogFile log;
  /** The snapshot being written, null for none. */
  private SnapshotFile snapshot;

  // Written by the writer, read anywhere.
  private volatile PersistenceStats stats;
  private volatile boolean needsRepair;

  private sealed interface Op permits Images, Rotate, SnapshotStart, SnapshotPart, SnapshotEnd {
  }

  private record Images(ByteBuf bytes, long mark) implements Op {
  }

  private record Rotate(long generation) implements Op {
  }

  private record SnapshotStart(long generation) implements Op {
  }

  private record SnapshotPart(List<ByteBuf> blocks, Runnable written) implements Op {
  }

  private record SnapshotEnd(long generation, long worstSliceNanos, Consumer<Throwable> done) implements Op {
  }

  private record Waiter(long mark, Runnable release) {
  }

  /**
   * Starts a log of generation {@code firstGeneration} in {@code dir} (see {@link ShardLoader},
   * which says which comes next) and the writer thread.
   *
   * @param identity what the files' headers carry; its kind and generation are ignored
   * @param loaded   what loading found: the size of the snapshot and logs it read
   */
  public ShardPersistence(Path dir, DataFile identity, long firstGeneration, ShardLoader.Loaded loaded,
                          WriterSettings settings, Clock clock) {
    this.identity = identity;
    this.policy = settings.fsync();
    this.clock = clock;
    this.snapshotIntervalNanos = settings.snapshotIntervalNanos();
    this.queueLimitBytes = settings.queueLimitBytes();
    this.files = new ShardFiles(dir, identity, settings.files());
    this.failures = new FailureLog(identity.shard());
    this.log = new LogFile(files, this::failed, this::broke);
    this.generation = firstGeneration;
    this.lastSnapshotStartNanos = clock.epochNanos();
    // Files that recovery read only in part are replaced by a snapshot at once.
    this.needsRepair = loaded.lossy();
    this.stats = new PersistenceStats(loaded.logBytes(), loaded.snapshotEpochMillis(), 0, loaded.snapshotBytes(), 0,
        0, 0, false, null);
    ops.add(new Rotate(firstGeneration));
    this.writer = new Thread(this::writeLoop, "sluice-persistence-" + identity.shard());
    writer.setDaemon(true);
    writer.start();
  }

  public FsyncPolicy policy() {
    return policy;
  }

  /** The writer's figures, with the queue's and an overflow not yet repaired. */
  public PersistenceStats stats() {
    PersistenceStats written = stats;
    synchronized (lock) {
      return written.withQueue(queuedBytes, queuePeakBytes, overflows, overflowError);
    }
  }

  @Override
  public void changed(Record record) {
    synchronized (lock) {
      if (overflowing) {
        return;
      }
      int before = pending.writerIndex();
      RecordImage.writeState(pending, record);
      appended(before);
    }
  }

  @Override
  public void removed(Record record) {
    synchronized (lock) {
      if (overflowing) {
        return;
      }
      int before = pending.writerIndex();
      RecordImage.writeRemoval(pending, record.key());
      appended(before);
    }
  }

  private void appended(int before) {
    int bytes = pending.writerIndex() - before;
    appended += bytes;
    queuedBytes += bytes;
    if (queuedBytes > queueLimitBytes) {
      overflow();
      return;
    }
    queuePeakBytes = Math.max(queuePeakBytes, queuedBytes);
    if (pending.readableBytes() >= Block.TARGET_LENGTH) {
      cutPending();
      lock.notify();
    }
  }

  /**
   * The disk fell behind by more than the bound: drops the images not handed to the writer yet,
   * stops logging, and frees the replies waiting for them; a snapshot will repair. Under lock.
   */
  private void overflow() {
    long dropped = pending.readableBytes();
    pending = newChunk();
    for (Op op : ops) {
      if (op instanceof Images images) {
        dropped += images.bytes().readableBytes();
      }
    }
    ops.removeIf(op -> op instanceof Images);
    queuedBytes -= dropped;
    overflowing = true;
    overflows++;
    brokenGeneration = generation;
    durable = appended;
    waiters.forEach(waiter -> releasable.add(waiter.release()));
    waiters.clear();
    overflowError = "persistence of shard " + identity.shard() + ": the disk fell behind: more than " + queueLimitBytes
        + " bytes of changes waited to be written (--persistence-queue-bytes)";
    needsRepair = true;
    failures.failed(overflowError, "; " + dropped + " bytes dropped, changes are not logged until a snapshot repairs"
        + " the files (requests are still answered)");
  }

  /**
   * Runs {@code release} once every change made so far is as safe as the policy promises: at once
   * with {@code everysec} and {@code no}; with {@code always}, after the fsync covering them,
   * then on the writer's thread.
   */
  public void whenDurable(Runnable release) {
    if (policy != FsyncPolicy.ALWAYS) {
      release.run();
      return;
    }
    List<Runnable> freed;
    synchronized (lock) {
      freed = releasable;
      if (!freed.isEmpty()) {
        releasable = new ArrayList<>();
      }
    }
    freed.forEach(Runnable::run);
    synchronized (lock) {
      if (appended > durable) {
        waiters.add(new Waiter(appended, release));
        if (waiters.size() == 1) {
          lock.notify();
        }
        return;
      }
    }
    release.run();
  }

  /**
   * True when the shard should start a snapshot now: the interval has passed, the log outgrew the
   * last snapshot, or a failed write or an overflow needs the files made whole again (once the
   * writer has written what it held). Call on the shard's thread.
   */
  public boolean snapshotDue() {
    if (snapshotRunning) {
      return false;
    }
    long now = clock.epochNanos();
    if (needsRepair) {
      if (now - lastRepairNanos < RETRY_NANOS || !caughtUp()) {
        return false;
      }
      lastRepairNanos = now;
      return true;
    }
    PersistenceStats current = stats;
    return now - lastSnapshotStartNanos >= snapshotIntervalNanos
        || current.logBytes() > Math.max(LOG_FLOOR_BYTES, LOG_GROWTH_FACTOR * current.lastSnapshotBytes());
  }

  /** Starts a snapshot: call on the shard's thread, then drive the run's slices there. */
  public SnapshotRun startSnapshot(io.sluice.verticles.engine.storage.Store store) {
    snapshotRunning = true;
    lastSnapshotStartNanos = clock.epochNanos();
    long snapshotGeneration;
    synchronized (lock) {
      cutPending();
      snapshotGeneration = ++generation;
      ops.add(new Rotate(snapshotGeneration));
      ops.add(new SnapshotStart(snapshotGeneration));
      // The new log begins with the snapshot, which holds what an overflow dropped.
      overflowing = false;
      lock.notify();
    }
    return new SnapshotRun(this, store, snapshotGeneration);
  }

  void snapshotPart(List<ByteBuf> blocks, Runnable written) {
    enqueue(new SnapshotPart(blocks, written));
  }

  void finishSnapshot(long snapshotGeneration, long worstSliceNanos, Consumer<Throwable> done) {
    enqueue(new SnapshotEnd(snapshotGeneration, worstSliceNanos, done));
  }

  private void enqueue(Op op) {
    synchronized (lock) {
      ops.add(op);
      lock.notify();
    }
  }

  /**
   * Writes and forces everything appended, closes the files and stops the writer (a snapshot in
   * progress is abandoned: the logs hold everything). Blocks: call off the event loop, once the
   * shard takes no more work.
   */
  public void close() throws InterruptedException {
    synchronized (lock) {
      closing = true;
      lock.notify();
    }
    writer.join();
  }

  /**
   * False while an overflowed queue is still being written: its repair waits for the writer to
   * catch up (an overflowing shard appends nothing, so its queue only drains).
   */
  private boolean caughtUp() {
    synchronized (lock) {
      return !overflowing || queuedBytes == 0;
    }
  }

  /** Moves the images appended so far to the writer's queue; under lock. */
  private void cutPending() {
    if (pending.isReadable()) {
      ops.add(new Images(pending, appended));
      pending = newChunk();
    }
  }

  private static ByteBuf newChunk() {
    return Unpooled.buffer(64 * 1024);
  }

  private void writeLoop() {
    long lastFsync = System.nanoTime();
    while (true) {
      List<Op> work;
      boolean stop;
      synchronized (lock) {
        if (!closing && ops.isEmpty() && (waiters.isEmpty() || policy != FsyncPolicy.ALWAYS)) {
          try {
            lock.wait(WRITE_PERIOD_MILLIS);
          } catch (InterruptedException e) {
            closing = true;
          }
        }
        cutPending();
        work = new ArrayList<>(ops);
        ops.clear();
        stop = closing;
      }
      long covered = -1;
      for (Op op : work) {
        covered = Math.max(covered, run(op));
      }
      if (log.unsynced() && (stop || policy == FsyncPolicy.ALWAYS
          || (policy == FsyncPolicy.EVERYSEC && System.nanoTime() - lastFsync >= FSYNC_PERIOD_NANOS))) {
        log.force();
        lastFsync = System.nanoTime();
      }
      release(covered);
      publish(null);
      if (stop) {
        closeFiles();
        return;
      }
    }
  }

  /** Runs one queued operation; returns the append position it covers (-1 for none). */
  private long run(Op op) {
    if (op instanceof Images images) {
      addLogBytes(log.write(images.bytes()));
      synchronized (lock) {
        queuedBytes -= images.bytes().readableBytes();
      }
      return images.mark();
    } else if (op instanceof Rotate rotate) {
      addLogBytes(log.rotate(rotate.generation()));
    } else if (op instanceof SnapshotStart start) {
      snapshot = SnapshotFile.start(files, start.generation(), this::failed);
    } else if (op instanceof SnapshotPart part) {
      if (snapshot != null) {
        part.blocks().forEach(snapshot::write);
      }
      part.written().run();
    } else if (op instanceof SnapshotEnd end) {
      Throwable failure = endSnapshot(end.generation(), end.worstSliceNanos());
      snapshotRunning = false;
      end.done().accept(failure);
    }
    return -1;
  }

  /** Log {@code generation} misses changes from now on: only a later snapshot repairs it. */
  private void broke(long generation) {
    synchronized (lock) {
      brokenGeneration = Math.max(brokenGeneration, generation);
    }
  }

  /** Releases the replies waiting for appends up to {@code covered}, once forced (always) or written. */
  private void release(long covered) {
    List<Runnable> released = new ArrayList<>();
    synchronized (lock) {
      if (covered > durable && (policy != FsyncPolicy.ALWAYS || !log.unsynced())) {
        durable = covered;
      }
      while (!waiters.isEmpty() && waiters.peek().mark() <= durable) {
        released.add(waiters.poll().release());
      }
    }
    released.forEach(Runnable::run);
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
    boolean repaired;
    synchronized (lock) {
      // A log that misses changes after this snapshot began is not repaired by it.
      repaired = brokenGeneration < generation;
      if (repaired) {
        needsRepair = false;
        overflowError = null;
      }
    }
    if (repaired) {
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
    String message = "persistence of shard " + identity.shard() + ": failed " + what + ": " + e;
    failures.failed(message, " (requests are still answered; the next snapshot repairs the files)");
    needsRepair = true;
    publish(message);
  }
}
