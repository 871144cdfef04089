package io.sluice.verticles.server.persistence;

import io.sluice.verticles.engine.persist.FileChannels;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.engine.persist.WriterSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and how the shards persist ({@code --data-dir}, {@code --fsync},
 * {@code --snapshot-interval}, {@code --data-recover}, {@code --persistence-queue-bytes}); without
 * a directory, nothing is persisted. Built from {@link #OFF} with the {@code with…} methods.
 *
 * @param recover    start even when a data file is damaged in the middle, dropping what cannot be read
 * @param queueBytes changes all shards' writers together may hold in memory, each shard its share
 * @param files      how the writers open their files: the disk, or a test's slow channel
 */
public record PersistenceSettings(Optional<Path> dataDir, FsyncPolicy fsync, Duration snapshotInterval,
                                  boolean recover, long queueBytes, FileChannels files) {

  /** The default of {@code --persistence-queue-bytes}. */
  public static final long DEFAULT_QUEUE_BYTES = WriterSettings.DEFAULT_QUEUE_BYTES;

  /** Memory only; the option table's defaults for the rest, which {@link #withDataDir} puts to use. */
  public static final PersistenceSettings OFF = new PersistenceSettings(Optional.empty(), FsyncPolicy.EVERYSEC,
      Duration.ofMinutes(5), false, DEFAULT_QUEUE_BYTES, FileChannels.DISK);

  public PersistenceSettings withDataDir(Path dataDir) {
    return new PersistenceSettings(Optional.of(dataDir), fsync, snapshotInterval, recover, queueBytes, files);
  }

  public PersistenceSettings withFsync(FsyncPolicy fsync) {
    return new PersistenceSettings(dataDir, fsync, snapshotInterval, recover, queueBytes, files);
  }

  public PersistenceSettings withSnapshotInterval(Duration snapshotInterval) {
    return new PersistenceSettings(dataDir, fsync, snapshotInterval, recover, queueBytes, files);
  }

  public PersistenceSettings withRecover(boolean recover) {
    return new PersistenceSettings(dataDir, fsync, snapshotInterval, recover, queueBytes, files);
  }

  public PersistenceSettings withQueueBytes(long queueBytes) {
    return new PersistenceSettings(dataDir, fsync, snapshotInterval, recover, queueBytes, files);
  }

  public PersistenceSettings withFiles(FileChannels files) {
    return new PersistenceSettings(dataDir, fsync, snapshotInterval, recover, queueBytes, files);
  }

  public boolean enabled() {
    return dataDir.isPresent();
  }

  /** The same, in {@code name} under the data directory (when there is one). */
  public PersistenceSettings under(String name) {
    return new PersistenceSettings(dataDir.map(dir -> dir.resolve(name)), fsync, snapshotInterval, recover, queueBytes,
        files);
  }

  /** One of {@code shards} shards' writer: its share of the queue bound (at least a byte). */
  public WriterSettings writer(int shards) {
    return new WriterSettings(fsync, snapshotInterval.toNanos(), Math.max(1, queueBytes / shards), files);
  }
}
