package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.rls.InvalidRateLimitRequest;
import io.sluice.verticles.rls.RateLimitService;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.tracing.DecisionSpan;
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
final class GrpcAnswer implements RateLimitService.Answer {

  private static final System.Logger LOG = System.getLogger(GrpcAnswer.class.getName());

  /** An answer's HEADERS and trailers beyond its message or status text: a fixed allowance. */
  static final int FRAMES_ALLOWANCE = 64;

  /** The gRPC message prefix: a compressed flag and the length. */
  private static final int PREFIX = 5;

  private final GrpcServerRequest<Buffer, RateLimitResponse> call;
  private final GrpcBacklog backlog;
  private final int stream;
  private final Callers.Book callers;
  private final LogLimiter log;
  /** The request's bytes as they came (compressed or not), counted for the caller. */
  private int received;
  /** Once the request is parsed: its trace span and its domain. */
  private DecisionSpan span;
  private String domain;

  /**
   * @param stream  the HTTP/2 stream that carries the call
   * @param callers this event loop's list of gRPC callers
   * @param log     where a failure on a shard is told, at most once a second
   */
  GrpcAnswer(GrpcServerRequest<Buffer, RateLimitResponse> call, int stream, Callers.Book callers, LogLimiter log) {
    this.call = call;
    this.stream = stream;
    this.callers = callers;
    this.log = log;
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

  /** The request, parsed, goes to the service, which answers through {@link #answered} or {@link #failed}. */
  void deciding(DecisionSpan span, String domain) {
    this.span = span;
    this.domain = domain;
  }

  @Override
  public void answered(RateLimitResponse response) {
    span.rateLimited(domain, response.getOverallCode().name());
    ok(response);
  }

  /** A request the service refuses is INVALID_ARGUMENT with the reason; a failure on a shard is INTERNAL, logged. */
  @Override
  public void failed(Throwable failure) {
    if (failure instanceof InvalidRateLimitRequest invalid) {
      status(GrpcStatus.INVALID_ARGUMENT, invalid.getMessage());
    } else {
      log.log(LOG, System.Logger.Level.WARNING, "ShouldRateLimit for domain " + domain + " failed: " + failure);
      status(GrpcStatus.INTERNAL, String.valueOf(failure.getMessage()));
    }
  }

  private void ok(RateLimitResponse response) {
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
