package io.sluice.verticles.engine.persist;

import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.storage.Store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Rebuilds a shard from a data directory at start: its newest snapshot, then every log from that
 * snapshot's generation on, in order, once {@link ShardChain} found none of them missing or empty. Records whose absolute expiry has passed are not restored.
 * A torn log tail is cut off with a WARNING naming the file and offset; damage anywhere else
 * refuses the start ({@link DamagedFileException}) unless recovering.
 */
public final class ShardLoader {

  private static final System.Logger LOG = System.getLogger(ShardLoader.class.getName());

  private static final int READ_BYTES = 1 << 20;

  /**
   * What was loaded.
   *
   * @param nextGeneration      the generation the shard's new log takes
   * @param snapshotBytes       the size of the snapshot read, 0 for none
   * @param snapshotEpochMillis when it was written, 0 for none
   * @param logBytes            the size of the logs read
   * @param lossy               {@code --data-recover} dropped something: a snapshot should replace the damaged files
   */
  public record Loaded(long nextGeneration, long snapshotBytes, long snapshotEpochMillis, long logBytes,
                       boolean lossy) {
  }

  private ShardLoader() {
  }

  /**
   * Loads the files of {@code identity}'s shard from {@code dir} (created when missing) into
   * {@code store}, which should be empty and have no listener yet.
   *
   * @throws DamagedFileException a file that cannot be loaded: damaged (unless {@code recover}),
   *     of another format version, or written with another shard count or value size
   * @throws BrokenChainException a snapshot or log the chain needs is missing or empty (unless
   *     {@code recover}, which loads the rest and says what it went without); nothing is deleted then
   */
  public static Loaded load(Path dir, DataFile identity, Store store, boolean recover) throws IOException {
    Files.createDirectories(dir);
    ShardChain chain = ShardChain.of(dir, identity);
    if (!chain.gaps().isEmpty() && !recover) {
      throw new BrokenChainException(chain.gaps().get(0));
    }
    for (DataFile replaced : chain.superseded()) {
      Files.delete(replaced.in(dir)); // replaced by the snapshot; a crash came before their deletion
    }
    long snapshotBytes = 0;
    long snapshotMillis = 0;
    long logBytes = 0;
    boolean lossy = !chain.gaps().isEmpty();
    for (DataFile file : chain.links()) {
      Path path = file.in(dir);
      lossy |= read(path, identity.withKind(file.kind()), store, recover);
      if (file.kind() == DataFile.SNAPSHOT) {
        snapshotBytes = Files.size(path);
        snapshotMillis = Files.getLastModifiedTime(path).toMillis();
      } else {
        logBytes += Files.size(path);
      }
    }
    for (ShardChain.Gap gap : chain.gaps()) {
      LOG.log(System.Logger.Level.WARNING, "--data-recover: " + gap + ": loaded " + store.size() + " keys of shard "
          + identity.shard() + " without it (how many it held cannot be known)");
    }
    return new Loaded(chain.lastGeneration() + 1, snapshotBytes, snapshotMillis, logBytes, lossy);
  }

  /** Reads one file into the store; true when recovery dropped part of it. */
  private static boolean read(Path path, DataFile expected, Store store, boolean recover) throws IOException {
    String name = path.toString();
    boolean[] dropped = {false};
    BlockReader reader = new BlockReader(name, recover, (images, offset) -> {
      try {
        while (images.isReadable()) {
          RecordImage.apply(images, store);
        }
      } catch (RecordImage.MalformedImageException e) {
        if (!recover) {
          throw new DamagedFileException(name, offset, "a record image that cannot be read (" + e.getMessage()
              + ") in a block whose checksum matches", true);
        }
        LOG.log(System.Logger.Level.WARNING, "--data-recover: " + name + " at offset " + offset
            + ": dropped the rest of a block: " + e.getMessage());
        dropped[0] = true;
      }
    });
    boolean checked = false;
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer chunk = ByteBuffer.allocate(READ_BYTES);
      while (channel.read(chunk.clear()) > 0) {
        reader.feed(Unpooled.wrappedBuffer(chunk.flip()));
        if (!checked && reader.header() != null) {
          check(reader.header(), expected, name);
          checked = true;
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    BlockReader.End end = reader.end();
    end.dropped().forEach(loss -> LOG.log(System.Logger.Level.WARNING, "--data-recover: " + loss));
    boolean lossy = dropped[0] || !end.dropped().isEmpty();
    if (!end.torn()) {
      return lossy;
    }
    if (expected.kind() == DataFile.SNAPSHOT) {
      // Renamed into place only when whole: a snapshot that ends early was damaged afterwards.
      if (!recover) {
        throw new DamagedFileException(name, end.tornAt(), "the snapshot ends early: " + end.tornReason(), true);
      }
      LOG.log(System.Logger.Level.WARNING, "--data-recover: " + name + " at offset " + end.tornAt()
          + ": the snapshot ends early (" + end.tornReason() + "); loaded what came before");
      return true;
    }
    LOG.log(System.Logger.Level.WARNING, "torn tail of " + name + " at offset " + end.tornAt() + " ("
        + end.tornReason() + ", a write cut by a crash): the log is cut there and loaded up to it");
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
      channel.truncate(end.validEnd());
      channel.force(true);
    }
    return lossy;
  }

  private static void check(DataFile header, DataFile expected, String name) {
    if (header.kind() != expected.kind() || header.shard() != expected.shard()) {
      throw new DamagedFileException(name, 0, "its header says kind " + header.kind() + " of shard " + header.shard()
          + ", its name kind " + expected.kind() + " of shard " + expected.shard(), true);
    }
    if (header.shards() != expected.shards()) {
      throw new DamagedFileException(name, 0, "written with --shards " + header.shards() + "; this start has "
          + expected.shards() + ": start with --shards " + header.shards(), false);
    }
    if (header.valueBytes() != expected.valueBytes()) {
      throw new DamagedFileException(name, 0, "written with a value size of " + header.valueBytes()
          + " bytes; this start has " + expected.valueBytes() + ": start with the same --value-size", false);
    }
  }
}
