package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one kind of fragmented listing (spec §3):
 * {@code 01 | P:u64 | P × (index:u64 | Q:u64 | Q item headers | Q names)}. A listing has no total
 * length, so the only way to find its end is to walk the fragments, and inside each one the item
 * headers, whose first byte is the length of the item's name.
 */
final class ListingFormat<T> {

  /** Builds one item from its fixed-size header and its name (empty for unnamed items). */
  interface ItemReader<T> {
    T read(ByteBuf header, byte[] name);
  }

  /** The items of every fragment, in order, and how many fragments carried them. */
  record Items<T>(List<T> items, int fragments) {
  }

  private static final int ENVELOPE_HEADER = 9;
  private static final int FRAGMENT_HEADER = 16;
  private static final byte[] NO_NAME = new byte[0];

  private final int headerLength;
  private final boolean named;
  private final ItemReader<T> reader;

  ListingFormat(int headerLength, boolean named, ItemReader<T> reader) {
    this.headerLength = headerLength;
    this.named = named;
    this.reader = reader;
  }

  /**
   * The listing's length if the bytes seen so far settle it; otherwise a lower bound larger than
   * {@code readable}, so the caller need not look again before that many bytes have arrived.
   */
  long length(ByteBuf buf, int start, int readable) {
    long offset = ENVELOPE_HEADER;
    if (readable < offset) {
      return offset;
    }
    long fragments = buf.getLongLE(start + 1);
    for (long fragment = 0; Long.compareUnsigned(fragment, fragments) < 0; fragment++) {
      if (readable < offset + FRAGMENT_HEADER) {
        return offset + FRAGMENT_HEADER;
      }
      long items = buf.getLongLE(start + (int) offset + 8);
      if (items < 0 || items > ResponseReader.MAX_LENGTH / headerLength) {
        throw new ResponseDecodeException("a listing fragment claims " + Long.toUnsignedString(items) + " items");
      }
      long headersStart = offset + FRAGMENT_HEADER;
      long namesStart = ResponseReader.checkedLength(headersStart + items * headerLength);
      if (!named) {
        offset = namesStart;
        continue;
      }
      if (readable < namesStart) {
        return namesStart;
      }
      long namesLength = 0;
      for (long item = 0; item < items; item++) {
        namesLength += buf.getUnsignedByte(start + (int) (headersStart + item * headerLength));
      }
      offset = ResponseReader.checkedLength(namesStart + namesLength);
    }
    return offset;
  }

  /** Reads a complete listing whose length {@link #length} settled; index 0 is the status byte. */
  Items<T> read(ByteBuf frame) {
    int fragments = (int) frame.getLongLE(1);
    List<T> items = new ArrayList<>();
    int offset = ENVELOPE_HEADER;
    for (int fragment = 0; fragment < fragments; fragment++) {
      int count = (int) frame.getLongLE(offset + 8);
      int headersStart = offset + FRAGMENT_HEADER;
      int nameIndex = headersStart + count * headerLength;
      for (int item = 0; item < count; item++) {
        ByteBuf header = frame.slice(headersStart + item * headerLength, headerLength);
        byte[] name = NO_NAME;
        if (named) {
          int nameLength = header.getUnsignedByte(0);
          name = ByteBufUtil.getBytes(frame, nameIndex, nameLength);
          nameIndex += nameLength;
        }
        items.add(reader.read(header, name));
      }
      offset = nameIndex;
    }
    return new Items<>(items, fragments);
  }
}
