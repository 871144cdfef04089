package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * Incremental decoder for one connection's request stream. It is fed whatever the socket read
 * (any split, down to one byte at a time, or many frames at once) and calls the handler for each
 * complete frame, in order. It keeps at most one incomplete frame, in a buffer of exactly that
 * frame's size, never larger than the maximum frame size and only while the shared
 * {@link PartialFrameBudget} allows it. Such an oversized frame, an unknown type byte, an EVENT
 * nested too deep or a budget exceeded is reported once, and the decoder then ignores all further
 * input. Parsing walks each frame in place, without recursion, whatever it nests.
 */
public final class RequestDecoder {

  /** Receives decoded requests; called on the thread that calls {@link #feed}. */
  public interface Handler {
    /**
     * @param frameLength the bytes the request took on the wire
     * @return false to stop decoding after this request: the decoder holds the rest of its input
     *     back, and whatever it is fed after, until {@link #resume}
     */
    boolean onRequest(Request request, int frameLength);

    void onError(DecodeError error);
  }

  private static final String TOO_DEEP = "EVENT nested more than " + EventNesting.MAX_DEPTH + " deep";

  private final ValueSize size;
  private final int maxFrame;
  private final PartialFrameBudget budget;
  private final Handler handler;
  /** The incomplete frame, its capacity reserved from the budget; null when there is none. */
  private ByteBuf pending;
  private boolean failed;
  private boolean stopped;
  /** Input not decoded because the handler asked to stop; null when there is none. */
  private ByteBuf heldBack;

  /** A decoder whose incomplete frame counts against no shared budget. */
  public RequestDecoder(ValueSize size, int maxFrame, Handler handler) {
    this(size, maxFrame, PartialFrameBudget.unlimited(), handler);
  }

  public RequestDecoder(ValueSize size, int maxFrame, PartialFrameBudget budget, Handler handler) {
    this.size = size;
    this.maxFrame = maxFrame;
    this.budget = budget;
    this.handler = handler;
  }

  /** Consumes every readable byte of {@code in}; keeps a copy of an incomplete tail frame. */
  public void feed(ByteBuf in) {
    if (pending != null && !failed && !stopped && fillPending(in) && !failed) {
      decodeFrames(pending);
      drop();
    }
    if (!failed && !stopped) {
      decodeFrames(in);
      if (in.isReadable() && !failed && !stopped) {
        keep(in);
      }
    }
    if (stopped && !failed && in.isReadable()) {
      if (heldBack == null) {
        heldBack = Unpooled.buffer(in.readableBytes());
      }
      heldBack.writeBytes(in);
    }
    in.skipBytes(in.readableBytes());
  }

  /** Decodes the input held back since the handler asked to stop, until it asks again. */
  public void resume() {
    if (!stopped) {
      return;
    }
    stopped = false;
    ByteBuf input = heldBack;
    heldBack = null;
    if (input != null) {
      feed(input);
      input.release();
    }
  }

  /** Input held back, not decoded, since the handler asked to stop. */
  public int heldBackBytes() {
    return heldBack == null ? 0 : heldBack.readableBytes();
  }

  /** Bytes of an incomplete frame received so far. */
  public int bufferedBytes() {
    return pending == null ? 0 : pending.readableBytes();
  }

  /** Memory held for an incomplete frame: its whole length once its header is in, and reserved from the budget. */
  public int reservedBytes() {
    return pending == null ? 0 : pending.capacity();
  }

  /** Gives the incomplete frame's memory back to the budget; call when the connection closes. */
  public void close() {
    failed = true;
    drop();
    if (heldBack != null) {
      heldBack.release();
      heldBack = null;
    }
  }

  private void decodeFrames(ByteBuf buf) {
    while (buf.isReadable()) {
      int start = buf.readerIndex();
      long length = checkedLength(buf, start, buf.readableBytes());
      if (length < 0 || buf.readableBytes() < length) {
        return;
      }
      Request request = RequestType.ofCode(buf.getUnsignedByte(start)) == RequestType.EVENT
          ? event(buf, start)
          : parse(buf, start, (int) length, size);
      if (request == null) {
        return;
      }
      buf.readerIndex(start + (int) length);
      stopped = !handler.onRequest(request, (int) length);
      if (failed || stopped) {
        return;
      }
    }
  }

  /** The frame length at {@code start}, or a negative value when more bytes are needed or the stream failed. */
  private long checkedLength(ByteBuf buf, int start, int readable) {
    long length = FrameLength.of(buf, start, readable, size);
    if (length == FrameLength.UNKNOWN_TYPE) {
      fail(DecodeError.Reason.UNKNOWN_TYPE, String.format("unknown request type 0x%02x", buf.getUnsignedByte(start)));
      return -1;
    }
    if (length > maxFrame) {
      fail(DecodeError.Reason.FRAME_TOO_LARGE, "frame of " + (length == Long.MAX_VALUE ? "more than 2^31"
          : Long.toString(length)) + " bytes exceeds the maximum of " + maxFrame);
      return -1;
    }
    return length;
  }

  /** A whole EVENT frame, or null after reporting one nested too deep. */
  private Request event(ByteBuf buf, int start) {
    EventNesting nesting = nesting(buf, start, size);
    if (nesting.tooDeep()) {
      fail(DecodeError.Reason.EVENT_TOO_DEEP, TOO_DEEP);
      return null;
    }
    return event(buf, start, nesting, size);
  }

  /** Copies into {@link #pending} just the bytes that complete its frame; true once it is whole (or failed). */
  private boolean fillPending(ByteBuf in) {
    while (true) {
      int have = pending.readableBytes();
      long length = checkedLength(pending, pending.readerIndex(), have);
      if (failed || (length >= 0 && have >= length)) {
        return true;
      }
      if (!in.isReadable()) {
        return false;
      }
      if (length >= 0 && !reserveTo((int) length)) {
        return true;
      }
      // Until the header is complete the length is unknown: take one byte at a time (a header is short).
      int take = Math.min(length >= 0 ? (int) length - have : 1, in.readableBytes());
      pending.writeBytes(in, take);
    }
  }

  /** Keeps the incomplete frame at the head of {@code in}, in a buffer sized for it. */
  private void keep(ByteBuf in) {
    int start = in.readerIndex();
    long length = FrameLength.of(in, start, in.readableBytes(), size);
    int capacity = length >= 0 ? (int) length : longestHeader();
    if (!reserve(capacity)) {
      return;
    }
    pending = Unpooled.buffer(capacity).writeBytes(in);
  }

  /** Grows {@link #pending} to a frame length now known. */
  private boolean reserveTo(int length) {
    int capacity = pending.capacity();
    if (length <= capacity) {
      return true;
    }
    if (!reserve(length - capacity)) {
      return false;
    }
    pending.capacity(length);
    return true;
  }

  private boolean reserve(int bytes) {
    if (budget.reserve(bytes)) {
      return true;
    }
    fail(DecodeError.Reason.PARTIAL_FRAMES_OVER_LIMIT, "holding " + bytes + " more bytes of an incomplete frame"
        + " would take the incomplete frames of all connections over " + budget.limit() + " bytes");
    return false;
  }

  /** INSERT and SET have the longest fixed header: type, two N-byte fields and three bytes more. */
  private int longestHeader() {
    return 3 + 2 * size.bytes();
  }

  private void drop() {
    if (pending != null) {
      budget.release(pending.capacity());
      pending.release();
      pending = null;
    }
  }

  private void fail(DecodeError.Reason reason, String message) {
    failed = true;
    drop();
    handler.onError(new DecodeError(reason, message));
  }

  /**
   * Parses one complete frame whose length was given by {@link FrameLength}. Public so that
   * non-stream transports (a WebSocket binary frame) share the same parser.
   *
   * @throws IllegalArgumentException for an EVENT nested more than {@link EventNesting#MAX_DEPTH}
   *     deep (a stream decoder reports it as a {@link DecodeError} instead)
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
        return publishLayout(buf, start, size);
      case EVENT: {
        EventNesting nesting = nesting(buf, start, size);
        if (nesting.tooDeep()) {
          throw new IllegalArgumentException(TOO_DEEP);
        }
        return event(buf, start, nesting, size);
      }
      case CONNECTION:
        return new Request.Connection(bytes(buf, start + 1, 16));
      default:
        return Request.Bare.of(type);
    }
  }

  /**
   * Channel and payload of a frame laid out as {@code type | C | P:vN | channel | payload}: a
   * PUBLISH, and a pushed message (spec §7), whose payload is opaque data however it looks.
   */
  public static Request.Publish publishLayout(ByteBuf buf, int start, ValueSize size) {
    return new Request.Publish(bytes(buf, start + 2 + size.bytes(), buf.getUnsignedByte(start + 1)),
        bytes(buf, payloadStart(buf, start, size), payloadLength(buf, start, size)));
  }

  /** One copy of the outer payload; the inner request is parsed where it lies in the frame. */
  private static Request.Event event(ByteBuf buf, int start, EventNesting nesting, ValueSize size) {
    Request.Publish layout = publishLayout(buf, start, size);
    Request inner = nesting.holdsRequest() ? parse(buf, nesting.innerStart(), nesting.innerLength(), size) : null;
    return new Request.Event(layout.channel(), layout.payload(), inner, nesting.depth(), nesting.innerType());
  }

  private static EventNesting nesting(ByteBuf buf, int start, ValueSize size) {
    return EventNesting.of(buf, payloadStart(buf, start, size), payloadLength(buf, start, size), size);
  }

  private static int payloadStart(ByteBuf buf, int start, ValueSize size) {
    return start + 2 + size.bytes() + buf.getUnsignedByte(start + 1);
  }

  private static int payloadLength(ByteBuf buf, int start, ValueSize size) {
    return (int) size.get(buf, start + 2);
  }

  private static byte[] shortField(ByteBuf buf, int start) {
    return bytes(buf, start + 2, buf.getUnsignedByte(start + 1));
  }

  private static byte[] bytes(ByteBuf buf, int index, int length) {
    return ByteBufUtil.getBytes(buf, index, length, true);
  }
}
