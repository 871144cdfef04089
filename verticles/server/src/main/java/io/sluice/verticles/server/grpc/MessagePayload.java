package io.sluice.verticles.server.grpc;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcStatus;

/**
 * A gRPC message's own bytes, inflated when it is gzip, up to a bound: vertx-grpc would inflate a
 * message whole, so that a small compressed message could make the server hold far more.
 */
final class MessagePayload {

  /** The one compression a message may use; {@code grpc-accept-encoding} says so. */
  static final String GZIP = "gzip";

  /** The message cannot be read: the status and text to answer with. */
  static final class Refused extends Exception {
    private final GrpcStatus status;

    Refused(GrpcStatus status, String reason) {
      super(reason, null, false, false);
      this.status = status;
    }

    GrpcStatus status() {
      return status;
    }

    /** Adds to the answer's headers what the refusal needs beside its text: the compression accepted. */
    void describeIn(MultiMap headers) {
      if (status == GrpcStatus.UNIMPLEMENTED) {
        headers.set("grpc-accept-encoding", GZIP);
      }
    }
  }

  private MessagePayload() {
  }

  /**
   * The message's bytes; refused as RESOURCE_EXHAUSTED past {@code maxBytes} inflated, INTERNAL
   * for bytes that are not gzip, UNIMPLEMENTED for another compression.
   */
  static Buffer of(GrpcMessage message, int maxBytes) throws Refused {
    String encoding = message.encoding();
    if (encoding.equals("identity")) {
      return message.payload();
    }
    if (!encoding.equals(GZIP)) {
      throw new Refused(GrpcStatus.UNIMPLEMENTED, "messages compressed with " + encoding + " are not accepted; " + GZIP + " is");
    }
    try {
      return Buffer.buffer(BoundedGunzip.inflate(message.payload().getBytes(), maxBytes));
    } catch (BoundedGunzip.TooLarge tooLarge) {
      throw new Refused(GrpcStatus.RESOURCE_EXHAUSTED, tooLarge.getMessage());
    } catch (java.io.IOException notGzip) {
      throw new Refused(GrpcStatus.INTERNAL, "the message is not gzip: " + notGzip.getMessage());
    }
  }
}
