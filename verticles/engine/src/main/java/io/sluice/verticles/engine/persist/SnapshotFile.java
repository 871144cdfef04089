package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * The snapshot a shard's writer is writing (on the writer's thread only): its temporary file, the
 * blocks written to it, and its end, in place or abandoned. The first failure is reported and the
 * rest of the snapshot is skipped; it then ends abandoned.
 */
final class SnapshotFile {

  private final ShardFiles files;
  private final long generation;
  private final DiskFailures failures;
  private final long startedNanos = System.nanoTime();
  private FileChannel channel;
  private boolean broken;
  private long bytes = DataFile.HEADER_BYTES;

  private SnapshotFile(ShardFiles files, long generation, DiskFailures failures) {
    this.files = files;
    this.generation = generation;
    this.failures = failures;
  }

  /** Creates snapshot {@code generation}'s temporary file, with its header. */
  static SnapshotFile start(ShardFiles files, long generation, DiskFailures failures) {
    SnapshotFile snapshot = new SnapshotFile(files, generation, failures);
    try {
      snapshot.channel = files.createSnapshot(generation);
    } catch (IOException e) {
      snapshot.broken = true;
      failures.failed("starting " + files.temporarySnapshotPath(generation), e);
    }
    return snapshot;
  }

  void write(ByteBuf images) {
    if (broken || !images.isReadable()) {
      return;
    }
    try {
      ShardFiles.writeBlock(channel, images);
      bytes += Block.HEADER_BYTES + images.readableBytes();
    } catch (IOException e) {
      broken = true;
      failures.failed("writing " + files.temporarySnapshotPath(generation), e);
    }
  }

  /** Puts the snapshot in place and deletes what it replaces; answers the failure, or null. */
  IOException complete() {
    try {
      if (broken) {
        throw new IOException("the snapshot could not be written");
      }
      files.completeSnapshot(channel, generation);
      return null;
    } catch (IOException e) {
      if (!broken) {
        failures.failed("completing " + files.snapshotPath(generation), e);
      }
      abandon();
      return e;
    } finally {
      channel = null;
    }
  }

  /** Closes and deletes the unfinished snapshot (the logs still hold everything). */
  void abandon() {
    if (channel != null) {
      files.abandonSnapshot(channel, generation);
      channel = null;
    }
  }

  long generation() {
    return generation;
  }

  long bytes() {
    return bytes;
  }

  long tookMillis() {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }
}
