package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * The disk work of one shard's writer: creating its logs and snapshots, completing and deleting
 * them. A file takes its name only once its header is on disk (it is made as {@code NAME.tmp} and
 * renamed), and a creation that fails removes what it made, so that a crash or a failing disk
 * never leaves a short or empty data file: the loader can then take one for damage
 * ({@link ShardChain}).
 */
final class ShardFiles {

  private static final System.Logger LOG = System.getLogger(ShardFiles.class.getName());

  private final Path dir;
  private final DataFile identity;
  private final FileChannels channels;

  ShardFiles(Path dir, DataFile identity, FileChannels channels) {
    this.dir = dir;
    this.identity = identity;
    this.channels = channels;
  }

  Path logPath(long generation) {
    return log(generation).in(dir);
  }

  Path snapshotPath(long generation) {
    return snapshot(generation).in(dir);
  }

  Path temporarySnapshotPath(long generation) {
    return snapshot(generation).temporaryIn(dir);
  }

  /** Log {@code generation}, in place with its header forced to disk; on failure nothing of it is left. */
  FileChannel createLog(long generation) throws IOException {
    DataFile file = log(generation);
    FileChannel channel = createTemporary(file);
    try {
      channel.force(false);
      Files.move(file.temporaryIn(dir), file.in(dir), StandardCopyOption.ATOMIC_MOVE);
      forceDirectory();
      return channel;
    } catch (IOException e) {
      close(channel);
      delete(file.temporaryIn(dir));
      delete(file.in(dir));
      throw e;
    }
  }

  /** Snapshot {@code generation}'s temporary file, its header written; on failure nothing of it is left. */
  FileChannel createSnapshot(long generation) throws IOException {
    return createTemporary(snapshot(generation));
  }

  /**
   * Forces and closes the snapshot, puts it in place and deletes the snapshots and logs it replaces;
   * on failure the temporary file is deleted (the older files still hold everything).
   */
  void completeSnapshot(FileChannel channel, long generation) throws IOException {
    DataFile file = snapshot(generation);
    try {
      channel.force(false);
      channel.close();
      Files.move(file.temporaryIn(dir), file.in(dir), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      abandonSnapshot(channel, generation);
      throw e;
    }
    forceDirectory();
    deleteOlderThan(generation);
  }

  /** Closes and deletes an unfinished snapshot ({@code channel} may be null). */
  void abandonSnapshot(FileChannel channel, long generation) {
    close(channel);
    delete(snapshot(generation).temporaryIn(dir));
  }

  /** Appends one block of {@code images}. */
  static void writeBlock(FileChannel channel, ByteBuf images) throws IOException {
    ByteBuf header = Block.headerFor(images);
    ByteBuffer[] both = {header.nioBuffer(), images.nioBuffer()};
    long total = both[0].remaining() + both[1].remaining();
    long written = 0;
    while (written < total) {
      written += channel.write(both);
    }
  }

  static long sizeOf(Path path) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      return 0;
    }
  }

  private FileChannel createTemporary(DataFile file) throws IOException {
    Path temporary = file.temporaryIn(dir);
    FileChannel channel = null;
    try {
      channel = channels.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
      ByteBuf header = Unpooled.buffer(DataFile.HEADER_BYTES);
      file.writeHeader(header);
      ByteBuffer bytes = header.nioBuffer();
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      return channel;
    } catch (IOException e) {
      close(channel);
      delete(temporary);
      throw e;
    }
  }

  private void deleteOlderThan(long generation) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path path : files.toList()) {
        DataFile.named(path.getFileName().toString())
            .filter(f -> f.shard() == identity.shard() && f.generation() < generation)
            .ifPresent(f -> delete(path));
      }
    }
  }

  private void forceDirectory() throws IOException {
    try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
      directory.force(true);
    }
  }

  private DataFile log(long generation) {
    return identity.withKind(DataFile.LOG).withGeneration(generation);
  }

  private DataFile snapshot(long generation) {
    return identity.withKind(DataFile.SNAPSHOT).withGeneration(generation);
  }

  private static void close(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // Already failing; what matters is that the file goes.
    }
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "could not delete " + path + ": " + e);
    }
  }
}
