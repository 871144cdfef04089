package io.sluice.verticles.engine.persist;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The one writer thread of a shard verticle: it serves the logs of every store the verticle hosts
 * (one on a single node; in a cluster, every partition placed on it), so a node has one writer per
 * shard verticle, not one per partition. Each turn takes every log's queued work, writes it, forces
 * each log as its {@link FsyncPolicy} says and releases the replies that waited. Every
 * {@link #WRITE_PERIOD_NANOS} it turns for every log (one turn covers the changes of all its logs
 * gathered meanwhile); in between, as soon as a log has a block, an operation or, with
 * {@code always}, a waiting reply, it turns for the logs that have such work (group commit: one
 * fsync per log covers every change made while the last ran). A shard's thread only unparks it,
 * never takes a lock of the writer's.
 *
 * <p>The thread ends once every log it serves is closed ({@link ShardPersistence#close}).
 */
public final class PersistenceWriter {

  /** The start of every writer thread's name, followed by its shard verticle's index. */
  public static final String THREAD_NAME = "sluice-persistence-";
  /** How often the writer hands the logs to the operating system: what kill -9 can lose at most. */
  static final long WRITE_PERIOD_NANOS = 100_000_000L;

  private final Thread thread;
  private final List<ShardPersistence> logs = new CopyOnWriteArrayList<>();
  // The writer's thread only: scratch lists, reused by every turn.
  private final List<WriterOp> work = new ArrayList<>();
  private final List<Runnable> released = new ArrayList<>();

  /** The writer of shard verticle {@code index}; not started. */
  public PersistenceWriter(int index) {
    this.thread = new Thread(this::run, THREAD_NAME + index);
    thread.setDaemon(true);
  }

  /** Starts the thread, once the logs it serves are all made; a writer that serves none has no thread. */
  public void start() {
    if (!logs.isEmpty()) {
      thread.start();
    }
  }

  /** Called by each log it serves as it is made, before {@link #start}. */
  void serve(ShardPersistence log) {
    if (thread.getState() != Thread.State.NEW) {
      throw new IllegalStateException(thread.getName() + " is started: a log must be served from the start");
    }
    logs.add(log);
  }

  /** Makes the writer turn now rather than at the end of its period. Never blocks. */
  void wake() {
    LockSupport.unpark(thread);
  }

  private void run() {
    try {
      long nextPeriodNanos = System.nanoTime() + WRITE_PERIOD_NANOS;
      while (!logs.isEmpty()) {
        long waitNanos = nextPeriodNanos - System.nanoTime();
        if (waitNanos > 0 && !anyWork()) {
          LockSupport.parkNanos(this, waitNanos);
        }
        // Interrupted: write, force and close everything, as when every log closes.
        boolean stop = Thread.interrupted();
        // Every log turns once a period; between periods only those with work of their own, so that
        // one log's full block does not cut every other log's buffer into small blocks.
        boolean periodic = System.nanoTime() - nextPeriodNanos >= 0;
        if (periodic) {
          nextPeriodNanos = System.nanoTime() + WRITE_PERIOD_NANOS;
        }
        for (ShardPersistence log : logs) {
          if ((periodic || stop || log.hasWork()) && log.writeTurn(work, released, stop)) {
            logs.remove(log);
          }
        }
      }
    } finally {
      // Only after a failure of the writer itself: whoever closes a log must not wait forever.
      logs.forEach(ShardPersistence::writerGone);
    }
  }

  private boolean anyWork() {
    for (ShardPersistence log : logs) {
      if (log.hasWork()) {
        return true;
      }
    }
    return false;
  }
}
