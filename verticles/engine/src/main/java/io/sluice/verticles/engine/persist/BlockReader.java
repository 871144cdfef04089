package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a data file fed in pieces of any size (one byte at a time works): its header, then every
 * whole {@link Block}, handed to the sink in order. Damage is judged by what follows it:
 * <ul>
 *   <li>a block cut short by the end of the file, a last block whose checksum does not match, or
 *       a block length that fails its check followed by nothing but zero bytes, is a <b>torn
 *       tail</b> (a crash during a write): reading ends at the last whole block;</li>
 *   <li>the same followed by anything else is <b>damage in the middle</b>: a
 *       {@link DamagedFileException} naming the file and offset, unless recovering, which drops the
 *       damaged block (or, when its length cannot be trusted, the rest of the file) and notes it.</li>
 * </ul>
 */
public final class BlockReader {

  /** Receives the images of one whole block; the bytes are only valid during the call. */
  public interface Sink {
    void block(ByteBuf images, long offset);
  }

  /** How the file ended: {@code tornAt} is -1 for a clean end; {@code dropped} says what recovery gave up. */
  public record End(long validEnd, long tornAt, String tornReason, List<String> dropped) {
    public boolean torn() {
      return tornAt >= 0;
    }
  }

  private final String file;
  private final boolean recover;
  private final Sink sink;
  private final ByteBuf held = Unpooled.buffer(Block.HEADER_BYTES);
  private final List<String> dropped = new ArrayList<>();
  private long heldOffset;
  private long validEnd;
  private DataFile header;
  /** A damaged block: where it starts, why, and whether its end is known (a checksum) or not (a length). */
  private long suspectAt = -1;
  private String suspectProblem;
  private boolean suspectLengthKnown;
  /** Recovery stopped reading: the rest of the file is dropped. */
  private boolean cut;

  public BlockReader(String file, boolean recover, Sink sink) {
    this.file = file;
    this.recover = recover;
    this.sink = sink;
  }

  /** The file's header, once its first 32 bytes have been fed; null before. */
  public DataFile header() {
    return header;
  }

  /** @throws DamagedFileException on a bad header, or on damage in the middle unless recovering */
  public void feed(ByteBuf bytes) {
    if (cut) {
      bytes.skipBytes(bytes.readableBytes());
      return;
    }
    if (suspectAt >= 0 && !suspectLengthKnown) {
      while (bytes.isReadable()) {
        if (bytes.readByte() != 0) {
          middleDamage();
          bytes.skipBytes(bytes.readableBytes());
          return;
        }
      }
      return;
    }
    held.writeBytes(bytes);
    parse();
    if (held.readerIndex() > Block.TARGET_LENGTH) {
      held.discardReadBytes();
    }
  }

  private void parse() {
    if (header == null) {
      if (held.readableBytes() < DataFile.HEADER_BYTES) {
        return;
      }
      header = DataFile.readHeader(held, file);
      heldOffset = validEnd = DataFile.HEADER_BYTES;
    }
    while (!cut) {
      if (suspectAt >= 0) {
        if (suspectLengthKnown) {
          if (!held.isReadable()) {
            return;
          }
          middleDamage();
          continue;
        }
        feedZeros();
        return;
      }
      if (held.readableBytes() < Block.HEADER_BYTES) {
        return;
      }
      int start = held.readerIndex();
      int length = held.getIntLE(start);
      if (held.getIntLE(start + 4) != ~length || length < 0 || length > Block.MAX_LENGTH) {
        suspect(false, "a block length that fails its check");
        continue;
      }
      if (held.readableBytes() < Block.HEADER_BYTES + length) {
        return;
      }
      int crc = held.getIntLE(start + 8);
      ByteBuf images = held.slice(start + Block.HEADER_BYTES, length);
      if (DataFile.crc(images, images.readerIndex(), length) != crc) {
        suspect(true, "a block checksum that does not match");
        consume(Block.HEADER_BYTES + length);
        continue;
      }
      long offset = heldOffset;
      consume(Block.HEADER_BYTES + length);
      validEnd = heldOffset;
      sink.block(images, offset);
    }
  }

  /** The bytes held after a bad length: zeros may still be a torn tail, anything else is damage. */
  private void feedZeros() {
    while (held.isReadable()) {
      if (held.readByte() != 0) {
        middleDamage();
        return;
      }
    }
  }

  private void suspect(boolean lengthKnown, String problem) {
    suspectAt = heldOffset;
    suspectProblem = problem;
    suspectLengthKnown = lengthKnown;
  }

  private void consume(int bytes) {
    held.skipBytes(bytes);
    heldOffset += bytes;
  }

  private void middleDamage() {
    if (!recover) {
      throw new DamagedFileException(file, suspectAt, suspectProblem, true);
    }
    if (suspectLengthKnown) {
      dropped.add(file + " at offset " + suspectAt + ": dropped a block with " + suspectProblem);
      validEnd = heldOffset;
    } else {
      dropped.add(file + " at offset " + suspectAt + ": dropped the rest of the file after " + suspectProblem);
      cut = true;
      held.skipBytes(held.readableBytes());
    }
    suspectAt = -1;
  }

  /** Call when the file has been fed whole: how it ended. */
  public End end() {
    if (header == null) {
      // Shorter than a header: a file whose creation was cut short holds nothing yet.
      return new End(0, held.readableBytes() > 0 ? 0 : -1, "a file header cut short", dropped);
    }
    if (cut) {
      return new End(validEnd, -1, null, dropped);
    }
    if (suspectAt >= 0) {
      return new End(suspectAt, suspectAt, suspectProblem + " at the end of the file", dropped);
    }
    if (held.isReadable()) {
      return new End(heldOffset, heldOffset, "a block cut short", dropped);
    }
    return new End(heldOffset, -1, null, dropped);
  }
}
