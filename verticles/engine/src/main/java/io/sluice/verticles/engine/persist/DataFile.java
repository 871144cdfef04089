package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The files of a data directory and their header (see docs/persistence.md). Each shard has a chain
 * of generations: snapshot {@code g} holds the shard's state when log {@code g} was started, so
 * loading the newest snapshot and then every log from its generation on rebuilds the shard.
 *
 * <pre>
 *   header, 32 bytes, little-endian:
 *     8  magic "SLUICEDB"
 *     u16 format version
 *     u8  kind: 1 log, 2 snapshot
 *     u8  value size in bytes (1, 2, 4, 8)
 *     u32 shard index
 *     u32 shard count
 *     u64 generation
 *     u32 CRC32C of the 28 bytes before it
 * </pre>
 *
 * @param kind       {@link #LOG} or {@link #SNAPSHOT}
 * @param valueBytes the width of the Throttr value fields the records were written under
 */
public record DataFile(int kind, int valueBytes, int shard, int shards, long generation) {

  public static final int LOG = 1;
  public static final int SNAPSHOT = 2;

  /** The format this code writes and reads. */
  public static final int VERSION = 1;

  public static final int HEADER_BYTES = 32;

  private static final byte[] MAGIC = "SLUICEDB".getBytes(StandardCharsets.US_ASCII);

  private static final Pattern NAME = Pattern.compile("shard-(\\d{4,})\\.(\\d{16})\\.(log|snapshot)");

  /** The file's name: {@code shard-0003.0000000000000012.log} or {@code ….snapshot}. */
  public String fileName() {
    return String.format("shard-%04d.%016d.%s", shard, generation, kind == LOG ? "log" : "snapshot");
  }

  public Path in(Path dir) {
    return dir.resolve(fileName());
  }

  /** Where a snapshot is written until it is whole. */
  public Path temporaryIn(Path dir) {
    return dir.resolve(fileName() + ".tmp");
  }

  public DataFile withKind(int otherKind) {
    return new DataFile(otherKind, valueBytes, shard, shards, generation);
  }

  public DataFile withGeneration(long otherGeneration) {
    return new DataFile(kind, valueBytes, shard, shards, otherGeneration);
  }

  /**
   * What a file name says (kind, shard, generation), or empty for a name that is not a data file;
   * value size and shard count come from the header.
   */
  public static Optional<DataFile> named(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    int kind = m.group(3).equals("log") ? LOG : SNAPSHOT;
    return Optional.of(new DataFile(kind, 0, Integer.parseInt(m.group(1)), 0, Long.parseLong(m.group(2))));
  }

  public void writeHeader(ByteBuf out) {
    int start = out.writerIndex();
    out.writeBytes(MAGIC);
    out.writeShortLE(VERSION);
    out.writeByte(kind);
    out.writeByte(valueBytes);
    out.writeIntLE(shard);
    out.writeIntLE(shards);
    out.writeLongLE(generation);
    out.writeIntLE(crc(out, start, HEADER_BYTES - 4));
  }

  /**
   * Reads a header from the {@link #HEADER_BYTES} bytes at {@code in}'s reader index.
   *
   * @throws DamagedFileException naming {@code file}: not a data file, a damaged header, or another
   *     format version
   */
  public static DataFile readHeader(ByteBuf in, String file) {
    int start = in.readerIndex();
    for (int i = 0; i < MAGIC.length; i++) {
      if (in.getByte(start + i) != MAGIC[i]) {
        throw new DamagedFileException(file, 0, "not a Sluice data file (no SLUICEDB header)", false);
      }
    }
    int version = in.getUnsignedShortLE(start + 8);
    if (crc(in, start, HEADER_BYTES - 4) != in.getIntLE(start + HEADER_BYTES - 4)) {
      throw new DamagedFileException(file, 0, "the file header's checksum does not match", false);
    }
    if (version != VERSION) {
      throw new DamagedFileException(file, 8, "format version " + version + ", this Sluice reads version "
          + VERSION + " only", false);
    }
    DataFile header = new DataFile(in.getUnsignedByte(start + 10), in.getUnsignedByte(start + 11),
        in.getIntLE(start + 12), in.getIntLE(start + 16), in.getLongLE(start + 20));
    in.skipBytes(HEADER_BYTES);
    return header;
  }

  static int crc(ByteBuf bytes, int from, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.nioBuffer(from, length));
    return (int) crc.getValue();
  }
}
