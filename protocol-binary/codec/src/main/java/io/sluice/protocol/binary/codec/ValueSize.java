package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

import java.util.Locale;

/**
 * The width N of every "value" field on the wire (quota, TTL, value and payload lengths).
 * Client and server agree on it out of band; nothing on the wire says which one is in use.
 * Values are unsigned: uint64 uses the whole Java {@code long} and callers compare with
 * {@link Long#compareUnsigned}.
 */
public enum ValueSize {
  UINT8(1), UINT16(2), UINT32(4), UINT64(8);

  private final int bytes;
  private final long mask;

  ValueSize(int bytes) {
    this.bytes = bytes;
    this.mask = bytes == 8 ? -1L : (1L << (8 * bytes)) - 1;
  }

  public int bytes() {
    return bytes;
  }

  /** The largest value, as an unsigned long. */
  public long max() {
    return mask;
  }

  /** Whether a length or value can be written in N bytes as it is, without being cut. */
  public boolean fits(long value) {
    return Long.compareUnsigned(value, mask) <= 0;
  }

  /** Reduces a value modulo 2^(8N), as the reference's cast to value_type does. */
  public long wrap(long value) {
    return value & mask;
  }

  /** Reads an N-byte little-endian unsigned value at an absolute index. */
  public long get(ByteBuf buf, int index) {
    switch (bytes) {
      case 1: return buf.getUnsignedByte(index);
      case 2: return buf.getUnsignedShortLE(index);
      case 4: return buf.getUnsignedIntLE(index);
      default: return buf.getLongLE(index);
    }
  }

  /** Writes the low N bytes of a value, little-endian. */
  public void write(ByteBuf buf, long value) {
    switch (bytes) {
      case 1: buf.writeByte((int) value); break;
      case 2: buf.writeShortLE((int) value); break;
      case 4: buf.writeIntLE((int) value); break;
      default: buf.writeLongLE(value);
    }
  }

  /** The configuration spelling: {@code uint8}, {@code uint16}, {@code uint32}, {@code uint64}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ValueSize parse(String text) {
    for (ValueSize size : values()) {
      if (size.label().equalsIgnoreCase(text.trim())) {
        return size;
      }
    }
    throw new IllegalArgumentException("value size must be uint8, uint16, uint32 or uint64, not '" + text + "'");
  }
}
