package io.sluice.verticles.server.persistence;

import io.sluice.verticles.engine.persist.FsyncPolicy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where and how the shards persist ({@code --data-dir}, {@code --fsync},
 * {@code --snapshot-interval}, {@code --data-recover}); without a directory, nothing is persisted.
 *
 * @param recover start even when a data file is damaged in the middle, dropping what cannot be read
 */
public record PersistenceSettings(Optional<Path> dataDir, FsyncPolicy fsync, Duration snapshotInterval,
                                  boolean recover) {

  public static final PersistenceSettings OFF =
      new PersistenceSettings(Optional.empty(), FsyncPolicy.EVERYSEC, Duration.ofMinutes(5), false);

  public boolean enabled() {
    return dataDir.isPresent();
  }
}
