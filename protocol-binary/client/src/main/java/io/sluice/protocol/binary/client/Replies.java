package io.sluice.protocol.binary.client;

import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.response.Response;

/** Turns the reply to a typed request into what the typed method promises. */
final class Replies {

  private Replies() {
  }

  /** The outcome of a request whose whole reply is a status byte. */
  static boolean ok(Response reply, RequestType request) {
    return expected(reply, Response.Status.class, request).ok();
  }

  /** The reply, or {@code null} when the server answered {@code 00} (key, ID or channel not found). */
  static <T extends Response> T orNullOnFailure(Response reply, Class<T> type, RequestType request) {
    if (isFailure(reply)) {
      return null;
    }
    return expected(reply, type, request);
  }

  /** The reply to a request that cannot fail (WHOAMI, INFO, listings); {@code 00} is an error. */
  static <T extends Response> T required(Response reply, Class<T> type, RequestType request) {
    if (isFailure(reply)) {
      throw new ThrottrClientException("the server answered " + request + " with 00 (failure)");
    }
    return expected(reply, type, request);
  }

  private static boolean isFailure(Response reply) {
    return reply instanceof Response.Status status && !status.ok();
  }

  private static <T extends Response> T expected(Response reply, Class<T> type, RequestType request) {
    if (!type.isInstance(reply)) {
      throw new ThrottrClientException(
          "a " + request + " request got a " + reply.getClass().getSimpleName() + " reply");
    }
    return type.cast(reply);
  }
}
