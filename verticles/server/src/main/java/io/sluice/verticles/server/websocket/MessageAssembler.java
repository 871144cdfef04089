package io.sluice.verticles.server.websocket;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.http.WebSocketFrameType;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Joins the data frames of a WebSocket message, done here rather than by Vert.x because Vert.x
 * turns invalid UTF-8 into U+FFFD instead of refusing it (RFC 6455 §8.1 says close with 1007) and
 * reports an oversize message as a generic exception. The decoder has already checked frame order
 * (no continuation without a start, no new message inside another) and each frame's size.
 */
final class MessageAssembler {

  /** Where whole messages, or the reason the connection must close, go. */
  interface Sink {
    void text(String text);

    void binary(Buffer message);

    void refuse(short status, String reason);
  }

  static final short INVALID_PAYLOAD = 1007;
  static final short MESSAGE_TOO_BIG = 1009;

  private final int maxBytes;
  private final Sink sink;
  private Buffer partial;
  private boolean partialIsText;

  /** @param maxBytes the largest message, all its frames together */
  MessageAssembler(int maxBytes, Sink sink) {
    this.maxBytes = maxBytes;
    this.sink = sink;
  }

  /** Takes a TEXT, BINARY or CONTINUATION frame. */
  void add(WebSocketFrame frame) {
    boolean text;
    Buffer message;
    if (frame.type() == WebSocketFrameType.CONTINUATION) {
      if (partial == null) {
        return; // the decoder refuses these; nothing to continue
      }
      text = partialIsText;
      message = partial.appendBuffer(frame.binaryData());
    } else {
      text = frame.type() == WebSocketFrameType.TEXT;
      message = frame.isFinal() ? frame.binaryData() : Buffer.buffer().appendBuffer(frame.binaryData());
    }
    if (message.length() > maxBytes) {
      partial = null;
      sink.refuse(MESSAGE_TOO_BIG, "message over " + maxBytes + " bytes");
      return;
    }
    if (!frame.isFinal()) {
      partial = message;
      partialIsText = text;
      return;
    }
    partial = null;
    if (!text) {
      sink.binary(message);
      return;
    }
    try {
      sink.text(strictUtf8(message.getBytes()));
    } catch (CharacterCodingException e) {
      sink.refuse(INVALID_PAYLOAD, "text message is not UTF-8");
    }
  }

  /** Decodes UTF-8, failing on any malformed sequence instead of replacing it. */
  static String strictUtf8(byte[] bytes) throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes)).toString();
  }
}
