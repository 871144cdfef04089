package io.sluice.verticles.server.grpc;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.http.HttpServerRequestInternal;
import io.vertx.core.internal.http.HttpServerRequestWrapper;
import io.vertx.grpc.common.GrpcStatus;

/**
 * A gRPC call that declared no {@code grpc-encoding}, as vertx-grpc reads it: a message flagged
 * compressed in it is answered INTERNAL, as the gRPC spec says, and nothing more of the call is
 * read. vertx-grpc itself would throw on it, log two stack traces and never answer (issue 30).
 */
final class UndeclaredCompression extends HttpServerRequestWrapper {

  static final String REASON = "a message is flagged compressed but the call declares no grpc-encoding";

  private final MessagePrefixes prefixes = new MessagePrefixes();
  private boolean refused;

  private UndeclaredCompression(HttpServerRequestInternal request) {
    super(request);
  }

  /** {@code request} as vertx-grpc should see it: checked when it may carry such a message. */
  static HttpServerRequest check(HttpServerRequest request) {
    String encoding = request.getHeader("grpc-encoding");
    boolean declared = encoding != null && !encoding.equals("identity");
    String type = request.getHeader("content-type");
    // grpc-web-text is base64: its prefixes are not bytes to read here (and vertx-grpc reads it its own way).
    boolean binary = type != null && type.startsWith("application/grpc") && !type.startsWith("application/grpc-web-text");
    return declared || !binary ? request : new UndeclaredCompression((HttpServerRequestInternal) request);
  }

  @Override
  public HttpServerRequest handler(Handler<Buffer> handler) {
    if (handler == null) {
      delegate.handler(null);
      return this;
    }
    delegate.handler(chunk -> {
      if (refused) {
        return;
      }
      if (prefixes.anyCompressed(chunk)) {
        refused = true;
        refuse(delegate.response());
        return;
      }
      handler.handle(chunk);
    });
    return this;
  }

  @Override
  public HttpServerRequest endHandler(Handler<Void> handler) {
    delegate.endHandler(handler == null ? null : end -> {
      if (!refused) {
        handler.handle(end);
      }
    });
    return this;
  }

  /** Trailers-only, unless the call was answered already (a message before this one). */
  private static void refuse(HttpServerResponse response) {
    if (response.headWritten() || response.ended()) {
      return;
    }
    response.setStatusCode(200)
        .putHeader("content-type", "application/grpc")
        .putHeader("grpc-status", String.valueOf(GrpcStatus.INTERNAL.code))
        .putHeader("grpc-message", REASON)
        .end();
  }
}
