package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

/**
 * Where the request an EVENT carries sits, however many EVENTs wrap it (spec §2.12): the headers are
 * walked in place, level by level, with no copy and no recursion. A payload may hold another EVENT
 * (a worker relaying a push wraps it again), but at most {@link #MAX_DEPTH} EVENT frames deep in all:
 * each level costs a header walk and an answer byte, and a frame of 8,096 bytes could otherwise nest
 * 2,000 of them.
 *
 * @param depth       EVENT frames walked, the outermost included: 1 when its own payload holds the
 *                    request; more than {@link #MAX_DEPTH} when the nesting is too deep
 * @param innerStart  absolute index of the innermost payload
 * @param innerLength length of the whole request frame at {@code innerStart}, or -1 when that payload
 *                    holds no whole request of a known type (the answer is then {@code 00})
 * @param innerType   the innermost payload's first byte, -1 when it is empty
 */
public record EventNesting(int depth, int innerStart, int innerLength, int innerType) {

  /** EVENT frames one request may be wrapped in, the outermost included. */
  public static final int MAX_DEPTH = 8;

  /**
   * @param payloadStart  absolute index of the outermost EVENT's payload
   * @param payloadLength its length; every byte of it must be readable
   */
  public static EventNesting of(ByteBuf buf, int payloadStart, int payloadLength, ValueSize size) {
    int start = payloadStart;
    int length = payloadLength;
    for (int depth = 1; ; depth++) {
      int type = length > 0 ? buf.getUnsignedByte(start) : -1;
      long frame = FrameLength.of(buf, start, length, size);
      if (frame < 0 || frame > length) {
        return new EventNesting(depth, start, -1, type);
      }
      if (type != RequestType.EVENT.code() || depth > MAX_DEPTH) {
        return new EventNesting(depth, start, (int) frame, type);
      }
      // The inner EVENT is a whole frame inside this payload, so its own payload is too.
      int channelLength = buf.getUnsignedByte(start + 1);
      int innerPayloadLength = (int) size.get(buf, start + 2);
      start += 2 + size.bytes() + channelLength;
      length = innerPayloadLength;
    }
  }

  /** True when the innermost payload is itself an EVENT frame past {@link #MAX_DEPTH}. */
  public boolean tooDeep() {
    return depth > MAX_DEPTH;
  }

  /** True when the innermost payload starts with a whole request frame of a known type. */
  public boolean holdsRequest() {
    return innerLength >= 0;
  }
}
