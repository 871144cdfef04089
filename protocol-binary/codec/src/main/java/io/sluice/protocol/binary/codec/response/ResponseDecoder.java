package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.ArrayDeque;

/**
 * Incremental decoder for the byte stream a Throttr server sends to one client connection.
 *
 * <p>Replies carry neither a type nor a length: their length follows from the request they answer
 * (spec §10). So the caller registers, with {@link #expect}, what it sends, in the order it sends
 * it, and the decoder matches replies to those registrations strictly by position. A message that
 * starts with 0x19 at a reply boundary is a push (spec §7.2); it goes to
 * {@link Handler#onPush} and takes no registration.
 *
 * <p>{@link #feed} takes any split of the stream, down to one byte at a time. An incomplete tail is
 * copied and kept until the rest arrives. After a {@link ResponseDecodeException} the decoder
 * ignores all further input. Not thread safe; handlers run on the thread that calls {@link #feed}.
 * A handler may call {@link #expect} (a completed request often sends the next one) but must not
 * call {@link #feed} or throw: an exception would leave the rest of the chunk unread. The
 * expectation queue has no bound of its own: the caller bounds what it has in flight.
 */
public final class ResponseDecoder {

  /** Receives decoded messages, in stream order. */
  public interface Handler {
    /** The reply to the oldest registered request that had none yet. */
    void onResponse(Response response);

    void onPush(Response.Push push);

    /** The stream cannot be decoded any further; called at most once. */
    void onError(ResponseDecodeException error);
  }

  private final ResponseReader reader;
  private final ValueSize size;
  private final Handler handler;
  private final ArrayDeque<ExpectedReply> expected = new ArrayDeque<>();
  private ByteBuf pending;
  /** The head message cannot be complete before this many bytes: saves re-measuring long listings. */
  private long awaitedBytes = 1;
  private boolean failed;

  public ResponseDecoder(ValueSize size, Handler handler) {
    this.reader = new ResponseReader(size);
    this.size = size;
    this.handler = handler;
  }

  /**
   * Registers the reply to a request of this type. EVENT is refused: its reply depends on the
   * payload, see {@link #expectEvent} and {@link #expect(Request)}.
   */
  public void expect(RequestType type) {
    expected.add(ExpectedReply.forType(type));
  }

  /**
   * Registers the reply to an EVENT, {@code 01} followed by the reply to the request in its payload.
   *
   * @param innerType the type of that request, or {@code null} when the payload holds no whole
   *                  request of a known type (the reply is then {@code 01 00}); not EVENT
   */
  public void expectEvent(RequestType innerType) {
    expected.add(ExpectedReply.forEvent(innerType));
  }

  /** Registers the reply to this request; for an EVENT the payload decides the inner reply. */
  public void expect(Request request) {
    expected.add(ExpectedReply.forRequest(request, size));
  }

  /** Registered requests still without a reply. */
  public int expectedCount() {
    return expected.size();
  }

  /** Bytes held for an incomplete message. */
  public int bufferedBytes() {
    return pending == null ? 0 : pending.readableBytes();
  }

  /** Consumes every readable byte of {@code in}; the caller keeps ownership of {@code in}. */
  public void feed(ByteBuf in) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (pending == null) {
      decodeMessages(in);
      if (in.isReadable() && !failed) {
        pending = Unpooled.buffer(Math.max(64, in.readableBytes())).writeBytes(in);
      }
      in.skipBytes(in.readableBytes());
      return;
    }
    pending.writeBytes(in);
    decodeMessages(pending);
    if (!pending.isReadable() || failed) {
      pending = null;
    } else {
      pending.discardReadBytes();
    }
  }

  private void decodeMessages(ByteBuf buf) {
    while (!failed && buf.isReadable() && buf.readableBytes() >= awaitedBytes) {
      int start = buf.readerIndex();
      int readable = buf.readableBytes();
      boolean push = buf.getUnsignedByte(start) == Responses.PUSH;
      long length;
      try {
        length = push ? reader.pushLength(buf, start, readable) : replyLength(buf, start, readable);
      } catch (ResponseDecodeException error) {
        fail(error);
        return;
      }
      if (length > readable) {
        awaitedBytes = length;
        return;
      }
      awaitedBytes = 1;
      ByteBuf frame = buf.slice(start, (int) length);
      buf.readerIndex(start + (int) length);
      if (push) {
        handler.onPush(reader.readPush(frame));
      } else {
        handler.onResponse(reader.readReply(frame, expected.poll()));
      }
    }
  }

  private long replyLength(ByteBuf buf, int start, int readable) {
    ExpectedReply next = expected.peek();
    if (next == null) {
      throw new ResponseDecodeException(String.format(
          "a reply starting with 0x%02x arrived but no request is waiting for one", buf.getUnsignedByte(start)));
    }
    return reader.replyLength(buf, start, readable, next);
  }

  private void fail(ResponseDecodeException error) {
    failed = true;
    handler.onError(error);
  }
}
