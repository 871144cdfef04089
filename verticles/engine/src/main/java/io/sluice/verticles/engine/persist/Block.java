package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The framing of many {@link io.sluice.verticles.engine.storage.RecordImage}s in a data file:
 * {@code [u32 length][u32 ~length][u32 CRC32C of the images][images]}, little-endian. The length is
 * stored twice (the second time inverted) so that a damaged length is told from a torn tail.
 */
public final class Block {

  public static final int HEADER_BYTES = 12;

  /** The largest block a reader accepts: one image may hold a buffer of up to 16 MiB. */
  public static final int MAX_LENGTH = 64 << 20;

  /** Writers cut their images into blocks of about this size. */
  public static final int TARGET_LENGTH = 1 << 20;

  private Block() {
  }

  /** The 12 header bytes that go before {@code images} (its readable bytes). */
  public static ByteBuf headerFor(ByteBuf images) {
    int length = images.readableBytes();
    ByteBuf header = Unpooled.buffer(HEADER_BYTES);
    header.writeIntLE(length);
    header.writeIntLE(~length);
    header.writeIntLE(DataFile.crc(images, images.readerIndex(), length));
    return header;
  }
}
