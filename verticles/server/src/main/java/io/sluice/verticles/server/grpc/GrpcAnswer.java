package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.sluice.verticles.server.metrics.Callers;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServerRequest;
import io.vertx.grpc.server.GrpcServerResponse;

/**
 * Ends one ShouldRateLimit call, with a response or a status, and keeps what the call holds (its
 * request, then its answer) counted in its connection's {@link GrpcBacklog} until the answer has
 * been written to the socket, or has failed to be; and counts the call for its caller on the
 * dashboard's list ({@link Callers}).
 */
final class GrpcAnswer {

  /** An answer's HEADERS and trailers beyond its message or status text: a fixed allowance. */
  static final int FRAMES_ALLOWANCE = 64;

  /** The gRPC message prefix: a compressed flag and the length. */
  private static final int PREFIX = 5;

  private final GrpcServerRequest<Buffer, RateLimitResponse> call;
  private final GrpcBacklog backlog;
  private final int stream;
  private final Callers.Book callers;
  /** The request's bytes as they came (compressed or not), counted for the caller. */
  private int received;

  /**
   * @param stream  the HTTP/2 stream that carries the call
   * @param callers this event loop's list of gRPC callers
   */
  GrpcAnswer(GrpcServerRequest<Buffer, RateLimitResponse> call, int stream, Callers.Book callers) {
    this.call = call;
    this.stream = stream;
    this.callers = callers;
    this.backlog = GrpcBacklog.of(((ConnectionBase) call.connection()).channel());
  }

  /** The call's request, read: held until the call is answered and the answer written. */
  void read(int bytes) {
    received = bytes;
    backlog.hold(stream, bytes);
  }

  /** The response's headers, for what a status needs beside its message. */
  GrpcServerResponse<Buffer, RateLimitResponse> response() {
    return call.response();
  }

  void ok(RateLimitResponse response) {
    written(PREFIX + response.getSerializedSize(), call.response().end(response));
    answered(response.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT ? Callers.Outcome.DENIED
        : Callers.Outcome.ALLOWED, response.getSerializedSize());
  }

  /** @throws IllegalStateException when vertx-grpc answered the call already (nothing is counted then) */
  void status(GrpcStatus status, String message) {
    written(message.length(), call.response().status(status).statusMessage(message).end());
    answered(Callers.Outcome.REFUSED, 0);
  }

  /**
   * By the connection's remote address (Envoy's, behind an Envoy): {@code host()}, the IP text Vert.x
   * keeps for the connection, as {@code hostAddress()} would format it anew on every call.
   */
  private void answered(Callers.Outcome outcome, long writeBytes) {
    callers.answered(call.connection().remoteAddress().host(), outcome, received, writeBytes);
  }

  private void written(int answerBytes, Future<Void> end) {
    backlog.hold(stream, answerBytes + FRAMES_ALLOWANCE);
    end.onComplete(done -> backlog.release(stream));
  }
}
