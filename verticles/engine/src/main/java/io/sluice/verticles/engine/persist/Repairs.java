package io.sluice.verticles.engine.persist;

/**
 * Whether one shard's files miss changes and need a snapshot to make them whole: after a load that
 * dropped something, a failed write (the writer's thread), or an overflowed queue (the shard's
 * thread). A snapshot repairs only the logs broken before it began.
 */
final class Repairs {

  private volatile boolean needed;
  /** The newest generation whose log misses changes; -1 for none. */
  private long brokenGeneration = -1;
  /** Why the queue overflowed, until a snapshot repairs it; null when it did not. */
  private String overflowError;

  Repairs(boolean needed) {
    this.needed = needed;
  }

  boolean needed() {
    return needed;
  }

  /** A write failed: the next snapshot is a repair. */
  void failed() {
    needed = true;
  }

  /** Log {@code generation} misses changes from now on: only a later snapshot repairs it. */
  synchronized void broke(long generation) {
    brokenGeneration = Math.max(brokenGeneration, generation);
  }

  /** The queue overflowed while log {@code generation} was current, for the reason {@code error}. */
  synchronized void overflowed(long generation, String error) {
    broke(generation);
    overflowError = error;
    needed = true;
  }

  /** Snapshot {@code generation} is in place: true when it made the files whole (nothing broke after it began). */
  synchronized boolean repairedBy(long generation) {
    if (brokenGeneration >= generation) {
      return false;
    }
    needed = false;
    overflowError = null;
    return true;
  }

  synchronized String overflowError() {
    return overflowError;
  }
}
