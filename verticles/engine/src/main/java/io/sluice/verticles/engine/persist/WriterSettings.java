package io.sluice.verticles.engine.persist;

/**
 * How one shard's log is written (by the {@link PersistenceWriter} of its shard verticle).
 *
 * @param fsync                 when the log is forced to disk
 * @param snapshotIntervalNanos how often a snapshot is taken
 * @param queueLimitBytes       changes (record images) that may wait in memory for the writer; past
 *                              it the shard stops logging until a snapshot repairs the files
 * @param files                 how the log and snapshot files are opened
 */
public record WriterSettings(FsyncPolicy fsync, long snapshotIntervalNanos, long queueLimitBytes, FileChannels files) {

  /** The default of {@code --persistence-queue-bytes} for a single shard's writer. */
  public static final long DEFAULT_QUEUE_BYTES = 64L << 20;

  public WriterSettings {
    if (queueLimitBytes < 1) {
      throw new IllegalArgumentException("the writer's queue bound must be positive, not " + queueLimitBytes);
    }
  }

  /** The disk, with the default queue bound. */
  public static WriterSettings of(FsyncPolicy fsync, long snapshotIntervalNanos) {
    return new WriterSettings(fsync, snapshotIntervalNanos, DEFAULT_QUEUE_BYTES, FileChannels.DISK);
  }
}
