package io.sluice.verticles.engine.persist;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The one writer thread of a shard verticle: it serves the logs of every store the verticle hosts
 * (one on a single node; in a cluster, every partition placed on it), so a node has one writer per
 * shard verticle, not one per partition. Each turn takes every log's queued work, writes it, forces
 * each log as its {@link FsyncPolicy} says and releases the replies that waited: one wake-up and one
 * turn cover the changes of all its logs gathered meanwhile (group commit). It turns every
 * {@link #WRITE_PERIOD_NANOS}, sooner when a log has a block, an operation or, with {@code always},
 * a waiting reply; a shard's thread only unparks it, never takes a lock of the writer's.
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
      while (!logs.isEmpty()) {
        if (!anyWork()) {
          LockSupport.parkNanos(this, WRITE_PERIOD_NANOS);
        }
        // Interrupted: write, force and close everything, as when every log closes.
        boolean stop = Thread.interrupted();
        for (ShardPersistence log : logs) {
          if (log.writeTurn(work, released, stop)) {
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
