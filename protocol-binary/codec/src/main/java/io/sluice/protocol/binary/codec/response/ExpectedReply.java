package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.EventNesting;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.ValueSize;

/**
 * What the reply to one sent request looks like. The reply carries no type of its own, so its
 * length can only be worked out from the request it answers.
 *
 * @param type       the request type, or {@code null} for "no request ran": the reply is a status
 *                   byte alone (the inner reply of an EVENT whose payload holds no known request)
 * @param eventInner for EVENT, what the inner reply looks like; otherwise {@code null}
 */
record ExpectedReply(RequestType type, ExpectedReply eventInner) {

  static final ExpectedReply STATUS_ONLY = new ExpectedReply(null, null);

  static ExpectedReply forType(RequestType type) {
    if (type == RequestType.EVENT) {
      throw new IllegalArgumentException(
          "the reply to an EVENT depends on the request in its payload: use expectEvent(innerType) or expect(request)");
    }
    return new ExpectedReply(type, null);
  }

  static ExpectedReply forEvent(RequestType innerType) {
    return new ExpectedReply(RequestType.EVENT, innerType == null ? STATUS_ONLY : forType(innerType));
  }

  /**
   * The payload decides the inner reply, not {@link Request.Event#inner()}: the server parses the
   * payload itself, so a caller that left {@code inner} unset still gets the reply it will send.
   * The rule is the one {@link RequestDecoder} applies: each EVENT level answers {@code 01}; a whole
   * frame of a known type at the start of the innermost payload runs, anything else answers a bare
   * {@code 00}.
   *
   * @throws IllegalArgumentException for an EVENT nested deeper than the server accepts: it would
   *     close the connection instead of answering
   */
  static ExpectedReply forRequest(Request request, ValueSize size) {
    if (!(request instanceof Request.Event event)) {
      return forType(request.type());
    }
    byte[] payload = event.payload();
    EventNesting nesting = EventNesting.of(Unpooled.wrappedBuffer(payload), 0, payload.length, size);
    if (nesting.tooDeep()) {
      throw new IllegalArgumentException("an EVENT nested more than " + EventNesting.MAX_DEPTH
          + " deep is refused: the server closes the connection");
    }
    ExpectedReply reply = nesting.holdsRequest() ? forType(RequestType.ofCode(nesting.innerType())) : STATUS_ONLY;
    for (int level = 0; level < nesting.depth(); level++) {
      reply = new ExpectedReply(RequestType.EVENT, reply);
    }
    return reply;
  }
}
