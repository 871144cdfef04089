package io.sluice.verticles.engine.persist;

import java.nio.file.Path;

/**
 * A shard's chain of data files has a gap (see {@link ShardChain}): a snapshot or log it needs is
 * missing or shorter than its header, so loading the rest would silently come back with fewer
 * records than were written. The message names the file.
 */
public final class BrokenChainException extends RuntimeException {

  private final Path file;

  BrokenChainException(ShardChain.Gap gap) {
    super(gap + "; start with --data-recover to load the rest of the files without it");
    this.file = gap.file();
  }

  public Path file() {
    return file;
  }
}
