package io.sluice.throttr.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * Incremental decoder for one connection's request stream. It is fed whatever the socket read
 * (any split, down to one byte at a time, or many frames at once) and calls the handler for each
 * complete frame, in order. It keeps at most one incomplete frame, and never one larger than the
 * maximum frame size: such a frame, or an unknown type byte, is reported once and the decoder
 * then ignores all further input.
 */
public final class RequestDecoder {

  /** Receives decoded requests; called on the thread that calls {@link #feed}. */
  public interface Handler {
    void onRequest(Request request);

    void onError(DecodeError error);
  }

  private final ValueSize size;
  private final int maxFrame;
  private final Handler handler;
  private ByteBuf pending;
  private boolean failed;

  public RequestDecoder(ValueSize size, int maxFrame, Handler handler) {
    this.size = size;
    this.maxFrame = maxFrame;
    this.handler = handler;
  }

  /** Consumes every readable byte of {@code in}; keeps a copy of an incomplete tail frame. */
  public void feed(ByteBuf in) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (pending == null) {
      decodeFrames(in);
      if (in.isReadable() && !failed) {
        pending = Unpooled.buffer(Math.max(64, in.readableBytes())).writeBytes(in);
      }
      in.skipBytes(in.readableBytes());
      return;
    }
    pending.writeBytes(in);
    decodeFrames(pending);
    if (!pending.isReadable() || failed) {
      pending.release();
      pending = null;
    } else {
      pending.discardReadBytes();
    }
  }

  /** Bytes held for an incomplete frame (for tests of the memory bound). */
  public int bufferedBytes() {
    return pending == null ? 0 : pending.readableBytes();
  }

  private void decodeFrames(ByteBuf buf) {
    while (buf.isReadable()) {
      int start = buf.readerIndex();
      long length = FrameLength.of(buf, start, buf.readableBytes(), size);
      if (length == FrameLength.NEED_MORE) {
        return;
      }
      if (length == FrameLength.UNKNOWN_TYPE) {
        fail(new DecodeError(DecodeError.Reason.UNKNOWN_TYPE,
            String.format("unknown request type 0x%02x", buf.getUnsignedByte(start))));
        return;
      }
      if (length > maxFrame) {
        fail(new DecodeError(DecodeError.Reason.FRAME_TOO_LARGE,
            "frame of " + (length == Long.MAX_VALUE ? "more than 2^31" : Long.toString(length))
                + " bytes exceeds the maximum of " + maxFrame));
        return;
      }
      if (buf.readableBytes() < length) {
        return;
      }
      Request request = parse(buf, start, (int) length, size);
      buf.readerIndex(start + (int) length);
      handler.onRequest(request);
      if (failed) {
        return;
      }
    }
  }

  private void fail(DecodeError error) {
    failed = true;
    handler.onError(error);
  }

  /**
   * Parses one complete frame whose length was given by {@link FrameLength}. Public so that an
   * EVENT's payload and non-stream transports (a WebSocket binary frame) share the same parser.
   */
  public static Request parse(ByteBuf buf, int start, int length, ValueSize size) {
    int n = size.bytes();
    RequestType type = RequestType.ofCode(buf.getUnsignedByte(start));
    switch (type) {
      case INSERT: {
        int keyLength = buf.getUnsignedByte(start + 2 * n + 2);
        return new Request.Insert(size.get(buf, start + 1), buf.getUnsignedByte(start + n + 1),
            size.get(buf, start + n + 2), bytes(buf, start + 3 + 2 * n, keyLength));
      }
      case QUERY:
        return new Request.Query(shortField(buf, start));
      case GET:
        return new Request.Get(shortField(buf, start));
      case PURGE:
        return new Request.Purge(shortField(buf, start));
      case STAT:
        return new Request.Stat(shortField(buf, start));
      case SUBSCRIBE:
        return new Request.Subscribe(shortField(buf, start));
      case UNSUBSCRIBE:
        return new Request.Unsubscribe(shortField(buf, start));
      case CHANNEL:
        return new Request.Channel(shortField(buf, start));
      case UPDATE: {
        int keyLength = buf.getUnsignedByte(start + n + 3);
        return new Request.Update(buf.getUnsignedByte(start + 1), buf.getUnsignedByte(start + 2),
            size.get(buf, start + 3), bytes(buf, start + 4 + n, keyLength));
      }
      case SET: {
        int keyLength = buf.getUnsignedByte(start + n + 2);
        int valueLength = (int) size.get(buf, start + n + 3);
        int keyStart = start + 3 + 2 * n;
        return new Request.Set(buf.getUnsignedByte(start + 1), size.get(buf, start + 2),
            bytes(buf, keyStart, keyLength), bytes(buf, keyStart + keyLength, valueLength));
      }
      case PUBLISH:
      case EVENT: {
        int channelLength = buf.getUnsignedByte(start + 1);
        int payloadLength = (int) size.get(buf, start + 2);
        int channelStart = start + 2 + n;
        byte[] channel = bytes(buf, channelStart, channelLength);
        int payloadStart = channelStart + channelLength;
        byte[] payload = bytes(buf, payloadStart, payloadLength);
        return type == RequestType.PUBLISH
            ? new Request.Publish(channel, payload)
            : new Request.Event(channel, payload, parseInner(buf, payloadStart, payloadLength, size));
      }
      case CONNECTION:
        return new Request.Connection(bytes(buf, start + 1, 16));
      default:
        return Request.Bare.of(type);
    }
  }

  /** An EVENT payload holds a request only if it starts with a whole frame of a known type. */
  private static Request parseInner(ByteBuf buf, int start, int length, ValueSize size) {
    long innerLength = FrameLength.of(buf, start, length, size);
    if (innerLength < 0 || innerLength > length) {
      return null;
    }
    return parse(buf, start, (int) innerLength, size);
  }

  private static byte[] shortField(ByteBuf buf, int start) {
    return bytes(buf, start + 2, buf.getUnsignedByte(start + 1));
  }

  private static byte[] bytes(ByteBuf buf, int index, int length) {
    return ByteBufUtil.getBytes(buf, index, length, true);
  }
}
