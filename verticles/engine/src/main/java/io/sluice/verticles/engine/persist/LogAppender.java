package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The appender of one shard's log: the shard's thread appends each change's image to a memory
 * buffer, and hands the writer blocks of them and the other {@link WriterOp}s; the replies waiting
 * for the disk wait here. The only state the shard's thread and the writer share, under this
 * object's lock: one lock taken per change, and the writer woken only when a block is cut, an
 * operation is queued or a reply starts to wait.
 *
 * <p>The images waiting for the writer are bounded ({@link WriterSettings#queueLimitBytes}): a disk
 * slower than the changes for long is treated like a failed write. The waiting images are dropped
 * (the log now has a gap), the shard stops logging, and the replies waiting for them are freed; once
 * the writer has written what it held a snapshot repairs the files ({@link Repairs}), and logging
 * resumes with that snapshot's new log. Memory stays bounded and the shard never waits.
 */
final class LogAppender {

  private final int shard;
  private final FsyncPolicy policy;
  private final long limitBytes;
  private final Repairs repairs;
  private final FailureLog failures;
  private final PersistenceWriter writer;

  private ByteBuf pending = newChunk();
  /** Image bytes handed to the log since start: the position a reply waits for. */
  private long appended;
  /** Image bytes the policy counts as safe (forced with always). */
  private long durable;
  private final ArrayDeque<WriterOp> ops = new ArrayDeque<>();
  private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
  private long generation;
  private boolean closing;
  /** Image bytes appended and not yet written (or dropped): what the writer's queue holds. */
  private long queuedBytes;
  /** The queue overflowed: nothing is appended until a snapshot starts a new log. */
  private boolean overflowing;
  /** Replies an overflow freed from waiting for the disk; run by the next {@link #whenDurable}. */
  private List<Runnable> releasable = new ArrayList<>();
  private long queuePeakBytes;
  private long overflows;

  private record Waiter(long mark, Runnable release) {
  }

  /** Starts with a rotation to log {@code firstGeneration}, the writer's first work for this log. */
  LogAppender(int shard, WriterSettings settings, long firstGeneration, Repairs repairs, FailureLog failures,
              PersistenceWriter writer) {
    this.shard = shard;
    this.policy = settings.fsync();
    this.limitBytes = settings.queueLimitBytes();
    this.repairs = repairs;
    this.failures = failures;
    this.writer = writer;
    this.generation = firstGeneration;
    ops.add(new WriterOp.Rotate(firstGeneration));
  }

  synchronized void changed(Record record) {
    if (overflowing) {
      return;
    }
    int before = pending.writerIndex();
    RecordImage.writeState(pending, record);
    appended(before);
  }

  synchronized void removed(Record record) {
    if (overflowing) {
      return;
    }
    int before = pending.writerIndex();
    RecordImage.writeRemoval(pending, record.key());
    appended(before);
  }

  private void appended(int before) {
    int bytes = pending.writerIndex() - before;
    appended += bytes;
    queuedBytes += bytes;
    if (queuedBytes > limitBytes) {
      overflow();
      return;
    }
    queuePeakBytes = Math.max(queuePeakBytes, queuedBytes);
    if (pending.readableBytes() >= Block.TARGET_LENGTH) {
      cutPending();
      writer.wake();
    }
  }

  /**
   * The disk fell behind by more than the bound: drops the images not handed to the writer yet,
   * stops logging, and frees the replies waiting for them; a snapshot will repair. Under lock.
   */
  private void overflow() {
    long dropped = pending.readableBytes();
    pending = newChunk();
    for (WriterOp op : ops) {
      if (op instanceof WriterOp.Images images) {
        dropped += images.bytes().readableBytes();
      }
    }
    ops.removeIf(op -> op instanceof WriterOp.Images);
    queuedBytes -= dropped;
    overflowing = true;
    overflows++;
    durable = appended;
    waiters.forEach(waiter -> releasable.add(waiter.release()));
    waiters.clear();
    String error = "persistence of shard " + shard + ": the disk fell behind: more than " + limitBytes
        + " bytes of changes waited to be written (--persistence-queue-bytes)";
    repairs.overflowed(generation, error);
    failures.failed(error, "; " + dropped + " bytes dropped, changes are not logged until a snapshot repairs"
        + " the files (requests are still answered)");
  }

  /** See {@link ShardPersistence#whenDurable}. */
  void whenDurable(Runnable release) {
    if (policy != FsyncPolicy.ALWAYS) {
      release.run();
      return;
    }
    List<Runnable> freed;
    synchronized (this) {
      freed = releasable;
      if (!freed.isEmpty()) {
        releasable = new ArrayList<>();
      }
    }
    freed.forEach(Runnable::run);
    synchronized (this) {
      if (appended > durable) {
        waiters.add(new Waiter(appended, release));
        if (waiters.size() == 1) {
          writer.wake();
        }
        return;
      }
    }
    release.run();
  }

  /**
   * Queues a rotation to the next generation and the start of its snapshot, and resumes logging
   * (the new log begins with the snapshot, which holds what an overflow dropped); answers the
   * generation.
   */
  synchronized long startSnapshot() {
    cutPending();
    long snapshotGeneration = ++generation;
    ops.add(new WriterOp.Rotate(snapshotGeneration));
    ops.add(new WriterOp.SnapshotStart(snapshotGeneration));
    overflowing = false;
    writer.wake();
    return snapshotGeneration;
  }

  void enqueue(WriterOp op) {
    synchronized (this) {
      ops.add(op);
    }
    writer.wake();
  }

  void close() {
    synchronized (this) {
      closing = true;
    }
    writer.wake();
  }

  /**
   * False while an overflowed queue is still being written: its repair waits for the writer to
   * catch up (an overflowing shard appends nothing, so its queue only drains).
   */
  synchronized boolean caughtUp() {
    return !overflowing || queuedBytes == 0;
  }

  /** True when the writer has something to do before its next period. */
  synchronized boolean hasWork() {
    return closing || !ops.isEmpty() || (!waiters.isEmpty() && policy == FsyncPolicy.ALWAYS);
  }

  /** Moves what waits (with the images appended so far) to {@code work}; answers whether the log is closing. */
  synchronized boolean takeWork(List<WriterOp> work) {
    cutPending();
    work.addAll(ops);
    ops.clear();
    return closing;
  }

  /** The writer wrote (or skipped) {@code bytes} of images: the queue holds that much less. */
  synchronized void written(long bytes) {
    queuedBytes -= bytes;
  }

  /**
   * Releases the replies waiting for appends up to {@code covered}, once they are forced
   * ({@code always}: nothing written remains {@code unsynced}) or written.
   */
  void release(long covered, boolean unsynced, List<Runnable> released) {
    synchronized (this) {
      if (covered > durable && (policy != FsyncPolicy.ALWAYS || !unsynced)) {
        durable = covered;
      }
      while (!waiters.isEmpty() && waiters.peek().mark() <= durable) {
        released.add(waiters.poll().release());
      }
    }
    released.forEach(Runnable::run);
    released.clear();
  }

  /** The writer's figures with the queue's and an overflow not yet repaired. */
  synchronized PersistenceStats withQueue(PersistenceStats written) {
    return written.withQueue(queuedBytes, queuePeakBytes, overflows, repairs.overflowError());
  }

  /** Moves the images appended so far to the writer's queue; under lock. */
  private void cutPending() {
    if (pending.isReadable()) {
      ops.add(new WriterOp.Images(pending, appended));
      pending = newChunk();
    }
  }

  private static ByteBuf newChunk() {
    return Unpooled.buffer(64 * 1024);
  }
}
