package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

/**
 * Works out the length of the frame at the head of a buffer from its type and header fields
 * (spec §1.4): the protocol has no generic length prefix.
 */
public final class FrameLength {

  /** The header is not complete yet: read more. */
  public static final long NEED_MORE = -1;
  /** The first byte names no request type. */
  public static final long UNKNOWN_TYPE = -2;

  private FrameLength() {
  }

  /**
   * @param start    absolute index of the type byte
   * @param readable bytes available from {@code start}
   * @return the whole frame length (may exceed {@code readable}), {@link #NEED_MORE} or
   *     {@link #UNKNOWN_TYPE}
   */
  public static long of(ByteBuf buf, int start, int readable, ValueSize size) {
    if (readable < 1) {
      return NEED_MORE;
    }
    RequestType type = RequestType.ofCode(buf.getUnsignedByte(start));
    if (type == null) {
      return UNKNOWN_TYPE;
    }
    int n = size.bytes();
    switch (type) {
      case INSERT: {
        int header = 3 + 2 * n;
        return readable < header ? NEED_MORE : header + (long) buf.getUnsignedByte(start + 2 * n + 2);
      }
      case QUERY:
      case GET:
      case PURGE:
      case STAT:
      case SUBSCRIBE:
      case UNSUBSCRIBE:
      case CHANNEL:
        return readable < 2 ? NEED_MORE : 2 + (long) buf.getUnsignedByte(start + 1);
      case UPDATE: {
        int header = 4 + n;
        return readable < header ? NEED_MORE : header + (long) buf.getUnsignedByte(start + n + 3);
      }
      case SET: {
        int header = 3 + 2 * n;
        if (readable < header) {
          return NEED_MORE;
        }
        return saturatingAdd(header + (long) buf.getUnsignedByte(start + n + 2), size.get(buf, start + n + 3));
      }
      case PUBLISH:
      case EVENT: {
        int header = 2 + n;
        if (readable < header) {
          return NEED_MORE;
        }
        return saturatingAdd(header + (long) buf.getUnsignedByte(start + 1), size.get(buf, start + 2));
      }
      case CONNECTION:
        return 17;
      default:
        return 1;
    }
  }

  /** A uint64 length may be "negative" as a Java long: any such frame is simply too large. */
  private static long saturatingAdd(long fixed, long unsignedLength) {
    return unsignedLength < 0 || unsignedLength > Integer.MAX_VALUE ? Long.MAX_VALUE : fixed + unsignedLength;
  }
}
