package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.sluice.verticles.rls.InvalidRateLimitRequest;
import io.sluice.verticles.rls.RateLimitService;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.shard.ShardQueries;
import io.sluice.verticles.server.tracing.DecisionSpan;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import com.google.protobuf.InvalidProtocolBufferException;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.server.tls.HandshakeFailures;
import io.sluice.verticles.server.front.ListenerGuards;
import io.sluice.verticles.server.tls.TlsReloads;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerOptions;
import io.vertx.grpc.server.GrpcServerRequest;

/**
 * The gRPC listener (HTTP/2 cleartext) of Envoy's rate limit service:
 * {@code envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit}, decided by the
 * {@link RateLimitService} of this event loop. One instance per front event loop, sharing the port
 * as the other fronts do. Any other method is UNIMPLEMENTED (vertx-grpc's answer); bytes that are
 * not a RateLimitRequest, a call without one, and a request the service refuses are
 * INVALID_ARGUMENT with the reason; a failure on a shard is INTERNAL, logged once.
 *
 * <p>Against a hostile client (issue 30): {@link GrpcConnectionGuard} bounds connections and streams,
 * a gzip message is inflated up to the message size limit (past it RESOURCE_EXHAUSTED), another
 * encoding is UNIMPLEMENTED with {@code grpc-accept-encoding}, a compressed message in a call without
 * {@code grpc-encoding} is INTERNAL ({@link UndeclaredCompression}), and what the libraries would log
 * as a stack trace per call is one line a second at most.
 */
public final class GrpcFrontVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(GrpcFrontVerticle.class.getName());

  /**
   * Requests are taken as bytes and parsed here, so that bytes that are not a RateLimitRequest get
   * INVALID_ARGUMENT with the reason (vertx-grpc's own decoder would only reset the stream).
   */
  static final ServiceMethod<Buffer, RateLimitResponse> SHOULD_RATE_LIMIT = ServiceMethod.server(
      ServiceName.create("envoy.service.ratelimit.v3.RateLimitService"), "ShouldRateLimit",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.IDENTITY);

  /** A request is a few hundred bytes; this bounds what one message may make the server hold. */
  private static final int MAX_MESSAGE_BYTES = 64 * 1024;

  /** The one compression a message may use; {@code grpc-accept-encoding} says so. */
  private static final String GZIP = "gzip";

  private final String host;
  private final int port;
  private final EnvoyRateLimit rls;
  private final ListenerGuards guards;
  private HttpServer server;
  private TlsReloads.Updater tlsUpdater;

  /** @param guards TLS (HTTP/2 over TLS, by ALPN) and the idle timeout, as the other listeners have them */
  public GrpcFrontVerticle(String host, int port, EnvoyRateLimit rls, ListenerGuards guards) {
    this.host = host;
    this.port = port;
    this.rls = rls;
    this.guards = guards;
  }

  @Override
  public Future<?> start() {
    RateLimitService service = rls.service();
    Callers.Book callers = rls.callerBook();
    LogLimiter log = new LogLimiter(guards.clock(), 1_000_000_000L);
    LibraryLogs.limit(guards.clock());
    // What vertx-grpc or Vert.x would log as an unhandled exception per call (a stream reset under it).
    context.exceptionHandler(failure -> log.log(LOG, System.Logger.Level.WARNING,
        "gRPC call failed: " + failure));
    GrpcServer grpc = GrpcServer.server(vertx, new GrpcServerOptions().setMaxMessageSize(MAX_MESSAGE_BYTES));
    grpc.callHandler(SHOULD_RATE_LIMIT, call -> {
      boolean[] received = {false};
      call.messageHandler(message -> {
        // A unary call carries one request; anything after it is not read.
        if (!received[0]) {
          received[0] = true;
          Buffer request = payload(call, message);
          if (request == null) {
            answered(callers, call, Callers.Outcome.REFUSED, message.payload().length(), 0);
          } else {
            answer(call, service, request, callers, message.payload().length());
          }
        }
      });
      call.endHandler(end -> {
        if (!received[0]) {
          try {
            refuse(call, "a ShouldRateLimit call carries one RateLimitRequest; this one carried none");
            answered(callers, call, Callers.Outcome.REFUSED, 0, 0);
          } catch (IllegalStateException alreadyAnswered) {
            // vertx-grpc has answered it already: a message over the size limit is RESOURCE_EXHAUSTED.
          }
        }
      });
    });
    HttpServerOptions options = guards.configure(new HttpServerOptions().setHttp2ClearTextEnabled(true).setTcpNoDelay(true)
        .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(GrpcConnectionGuard.MAX_STREAMS)));
    if (options.isSsl()) {
      // gRPC is HTTP/2: over TLS a client asks for it by ALPN.
      options.setUseAlpn(true);
    }
    GrpcConnectionGuard connections = new GrpcConnectionGuard(guards.gate(), log);
    HandshakeFailures handshakeFailures = new HandshakeFailures("gRPC", guards.clock());
    server = vertx.createHttpServer(options)
        // Without TLS what fails before the hand-over is a connection refused here, closed already.
        .exceptionHandler(options.isSsl() ? handshakeFailures::failed
            : failure -> LOG.log(System.Logger.Level.DEBUG, () -> "gRPC connection closed: " + failure))
        .connectionHandler(connections::accept)
        .requestHandler(request -> grpc.handle(UndeclaredCompression.check(request)));
    tlsUpdater = server::updateSSLOptions;
    guards.join(tlsUpdater);
    return server.listen(port, host);
  }

  /**
   * The message's bytes, inflated when it is compressed; null when the call was answered instead:
   * RESOURCE_EXHAUSTED past the size limit, INTERNAL for bytes that are not gzip, UNIMPLEMENTED
   * for another compression.
   */
  private static Buffer payload(GrpcServerRequest<Buffer, RateLimitResponse> call, GrpcMessage message) {
    String encoding = message.encoding();
    if (encoding.equals("identity")) {
      return message.payload();
    }
    if (!encoding.equals(GZIP)) {
      call.response().headers().set("grpc-accept-encoding", GZIP);
      call.response().status(GrpcStatus.UNIMPLEMENTED)
          .statusMessage("messages compressed with " + encoding + " are not accepted; " + GZIP + " is").end();
      return null;
    }
    try {
      return Buffer.buffer(BoundedGunzip.inflate(message.payload().getBytes(), MAX_MESSAGE_BYTES));
    } catch (BoundedGunzip.TooLarge tooLarge) {
      call.response().status(GrpcStatus.RESOURCE_EXHAUSTED).statusMessage(tooLarge.getMessage()).end();
    } catch (java.io.IOException notGzip) {
      call.response().status(GrpcStatus.INTERNAL).statusMessage("the message is not gzip: " + notGzip.getMessage()).end();
    }
    return null;
  }

  /**
   * @param received the message's bytes as they came (compressed or not), counted for the caller
   */
  private static void answer(GrpcServerRequest<Buffer, RateLimitResponse> call, RateLimitService service, Buffer message,
                             Callers.Book callers, int received) {
    DecisionSpan span = DecisionSpan.current(SHOULD_RATE_LIMIT.fullMethodName());
    RateLimitRequest request;
    try {
      request = RateLimitRequest.parseFrom(message.getBytes());
    } catch (InvalidProtocolBufferException notARequest) {
      refuse(call, "not a RateLimitRequest: " + notARequest.getMessage());
      answered(callers, call, Callers.Outcome.REFUSED, received, 0);
      return;
    }
    service.shouldRateLimit(request).whenComplete((response, failure) -> {
      if (failure == null) {
        span.rateLimited(request.getDomain(), response.getOverallCode().name());
        call.response().end(response);
        answered(callers, call, response.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT
            ? Callers.Outcome.DENIED : Callers.Outcome.ALLOWED, received, response.getSerializedSize());
        return;
      }
      answered(callers, call, Callers.Outcome.REFUSED, received, 0);
      Throwable cause = ShardQueries.cause(failure);
      if (cause instanceof InvalidRateLimitRequest) {
        refuse(call, cause.getMessage());
      } else {
        LOG.log(System.Logger.Level.WARNING, "ShouldRateLimit for domain " + request.getDomain() + " failed: " + cause);
        call.response().status(GrpcStatus.INTERNAL).statusMessage(String.valueOf(cause.getMessage())).end();
      }
    });
  }

  /**
   * Counts the call for its caller, by the connection's remote address (Envoy's, behind an Envoy):
   * {@code host()}, the IP text Vert.x keeps for the connection, as {@code hostAddress()} would format
   * it anew on every call.
   */
  private static void answered(Callers.Book callers, GrpcServerRequest<Buffer, RateLimitResponse> call,
                               Callers.Outcome outcome, long readBytes, long writeBytes) {
    callers.answered(call.connection().remoteAddress().host(), outcome, readBytes, writeBytes);
  }

  private static void refuse(GrpcServerRequest<Buffer, RateLimitResponse> call, String reason) {
    call.response().status(GrpcStatus.INVALID_ARGUMENT).statusMessage(reason).end();
  }

  public int actualPort() {
    return server.actualPort();
  }

  @Override
  public Future<?> stop() {
    guards.leave(tlsUpdater);
    return server.close();
  }
}
