package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The log a shard's writer appends to (on the writer's thread only): the current generation's
 * file, whether it is forced, and whether it broke. A log that failed a write is not written again
 * (a block after a failed one could not be trusted): only a later snapshot repairs it.
 */
final class LogFile {

  /** Told the generation of a log that misses changes from now on. */
  @FunctionalInterface
  interface Breaks {
    void broke(long generation);
  }

  private final ShardFiles files;
  private final DiskFailures failures;
  private final Breaks breaks;
  private FileChannel channel;
  private Path path;
  private long generation;
  private boolean broken;
  /** When the oldest write not yet forced was made (System.nanoTime), -1 for none. */
  private long unsyncedSince = -1;

  LogFile(ShardFiles files, DiskFailures failures, Breaks breaks) {
    this.files = files;
    this.failures = failures;
    this.breaks = breaks;
  }

  /** Forces and closes the current log and starts log {@code next}; answers the bytes written, 0 on failure. */
  long rotate(long next) {
    close();
    path = files.logPath(next);
    generation = next;
    broken = false;
    try {
      channel = files.createLog(next);
      return DataFile.HEADER_BYTES;
    } catch (IOException e) {
      fail("starting " + path, e);
      return 0;
    }
  }

  /** Appends a block of {@code images}; answers the bytes written, 0 when none were. */
  long write(ByteBuf images) {
    if (channel == null || broken) {
      return 0;
    }
    try {
      ShardFiles.writeBlock(channel, images);
      if (unsyncedSince < 0) {
        unsyncedSince = System.nanoTime();
      }
      return Block.HEADER_BYTES + images.readableBytes();
    } catch (IOException e) {
      fail("writing " + path, e);
      return 0;
    }
  }

  /** True when something written is not forced to disk yet. */
  boolean unsynced() {
    return channel != null && unsyncedSince >= 0;
  }

  long lagMillis() {
    return unsyncedSince < 0 ? 0 : (System.nanoTime() - unsyncedSince) / 1_000_000;
  }

  void force() {
    try {
      channel.force(false);
      unsyncedSince = -1;
    } catch (IOException e) {
      unsyncedSince = -1;
      fail("forcing " + path + " to disk", e);
    }
  }

  boolean broken() {
    return broken;
  }

  /** The current log's size on disk, 0 for none. */
  long size() {
    return path == null ? 0 : ShardFiles.sizeOf(path);
  }

  void close() {
    if (channel == null) {
      return;
    }
    try {
      if (!broken) {
        channel.force(false);
      }
      channel.close();
    } catch (IOException e) {
      failures.failed("closing " + path, e);
    }
    unsyncedSince = -1;
    channel = null;
  }

  private void fail(String what, IOException e) {
    broken = true;
    breaks.broke(generation);
    failures.failed(what, e);
  }
}
