package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.sluice.verticles.rls.RateLimitService;
import io.sluice.verticles.server.health.Readiness;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.tracing.DecisionSpan;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import com.google.protobuf.InvalidProtocolBufferException;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.server.tls.HandshakeFailures;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.listener.Listener;
import io.vertx.grpc.common.GrpcMessage;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerOptions;

/**
 * The gRPC listener (HTTP/2 cleartext) of Envoy's rate limit service:
 * {@code envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit}, decided by the
 * {@link RateLimitService} of this event loop. One instance per front event loop, sharing the port
 * as the other fronts do. Any other method is UNIMPLEMENTED (vertx-grpc's answer); bytes that are
 * not a RateLimitRequest, a call without one, and a request the service refuses are
 * INVALID_ARGUMENT with the reason; a failure on a shard is INTERNAL, logged (a line a second at most).
 * gRPC's health service answers beside it ({@link GrpcHealth}).
 *
 * <p>Against a hostile client (issue 30): {@link GrpcConnectionGuard} bounds connections and streams,
 * a gzip message is inflated up to the message size limit (past it RESOURCE_EXHAUSTED), another
 * encoding is UNIMPLEMENTED with {@code grpc-accept-encoding}, a compressed message in a call without
 * {@code grpc-encoding} is INTERNAL ({@link UndeclaredCompression}), what a connection holds is
 * bounded by {@code --max-pending-bytes} ({@link GrpcBacklog}), and what the libraries would log
 * as a stack trace per call is one line a second at most.
 */
public final class GrpcFrontVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(GrpcFrontVerticle.class.getName());

  /**
   * Requests are taken as bytes and parsed here, so that bytes that are not a RateLimitRequest get
   * INVALID_ARGUMENT with the reason (vertx-grpc's own decoder would only reset the stream).
   */
  public static final ServiceMethod<Buffer, RateLimitResponse> SHOULD_RATE_LIMIT = ServiceMethod.server(
      ServiceName.create("envoy.service.ratelimit.v3.RateLimitService"), "ShouldRateLimit",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.IDENTITY);

  /** The span's name: vertx-grpc would make it anew on every call. */
  private static final String METHOD_NAME = SHOULD_RATE_LIMIT.fullMethodName();

  /** A request is a few hundred bytes; this bounds what one message may make the server hold. */
  static final int MAX_MESSAGE_BYTES = 64 * 1024;

  private final String host;
  private final int port;
  private final EnvoyRateLimit rls;
  private final ListenerGuards guards;
  private final int maxPendingBytes;
  private final Readiness readiness;
  private Listener listener;
  /** The stream of the request being handed to vertx-grpc (on this verticle's event loop). */
  private int callStream;

  /**
   * @param guards          TLS (HTTP/2 over TLS, by ALPN) and the idle timeout, as the other listeners have them
   * @param maxPendingBytes what one connection may hold before the server stops reading from it ({@link GrpcBacklog})
   * @param readiness       what the health service answers by
   */
  public GrpcFrontVerticle(String host, int port, EnvoyRateLimit rls, ListenerGuards guards, int maxPendingBytes,
                           Readiness readiness) {
    this.host = host;
    this.port = port;
    this.rls = rls;
    this.guards = guards;
    this.maxPendingBytes = maxPendingBytes;
    this.readiness = readiness;
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
    GrpcServer grpc = GrpcServer.server(vertx, grpcOptions());
    grpc.callHandler(SHOULD_RATE_LIMIT, call -> {
      boolean[] received = {false};
      GrpcAnswer answer = new GrpcAnswer(call, callStream, callers, log);
      call.messageHandler(message -> {
        // A unary call carries one request; anything after it is not read.
        if (!received[0]) {
          received[0] = true;
          answer.read(message.payload().length());
          Buffer request = payload(answer, message);
          if (request != null) {
            answer(answer, service, request);
          }
        }
      });
      call.endHandler(end -> {
        if (!received[0]) {
          try {
            refuse(answer, "a ShouldRateLimit call carries one RateLimitRequest; this one carried none");
          } catch (IllegalStateException alreadyAnswered) {
            // vertx-grpc has answered it already: a message over the size limit is RESOURCE_EXHAUSTED.
          }
        }
      });
    });
    GrpcHealth.serve(vertx, grpc, readiness);
    HttpServerOptions options = serverOptions(guards);
    GrpcConnectionGuard connections = new GrpcConnectionGuard(guards.gate(), log, maxPendingBytes, rls.pendingBytes());
    HandshakeFailures handshakeFailures = new HandshakeFailures("gRPC", guards.clock());
    HttpServer server = vertx.createHttpServer(options)
        // Without TLS what fails before the hand-over is a connection refused here, closed already.
        .exceptionHandler(options.isSsl() ? handshakeFailures::failed
            : failure -> LOG.log(System.Logger.Level.DEBUG, () -> "gRPC connection closed: " + failure))
        .connectionHandler(connections::accept)
        .requestHandler(request -> {
          // vertx-grpc hands the call to the handler above at once, without the HTTP/2 stream it came on.
          callStream = request.streamId();
          grpc.handle(UndeclaredCompression.check(request));
        });
    listener = Listener.bind(server, guards, host, port);
    return listener.bound();
  }

  /** vertx-grpc's options of the gRPC port: the message size limit. */
  public static GrpcServerOptions grpcOptions() {
    return new GrpcServerOptions().setMaxMessageSize(MAX_MESSAGE_BYTES);
  }

  /** The gRPC port's server options: HTTP/2 cleartext (or over TLS by ALPN), the stream limit, the guards'. */
  public static HttpServerOptions serverOptions(ListenerGuards guards) {
    HttpServerOptions options = guards.configure(new HttpServerOptions().setHttp2ClearTextEnabled(true).setTcpNoDelay(true)
        .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(GrpcConnectionGuard.MAX_STREAMS)));
    if (options.isSsl()) {
      // gRPC is HTTP/2: over TLS a client asks for it by ALPN.
      options.setUseAlpn(true);
    }
    return options;
  }

  /** The message's bytes, inflated when it is compressed; null when the call was answered instead. */
  private static Buffer payload(GrpcAnswer call, GrpcMessage message) {
    try {
      return MessagePayload.of(message, MAX_MESSAGE_BYTES);
    } catch (MessagePayload.Refused refused) {
      refused.describeIn(call.response().headers());
      call.status(refused.status(), refused.getMessage());
      return null;
    }
  }

  /** The request, parsed once from the message's own bytes (no copy), decided; {@code call} answers it. */
  private static void answer(GrpcAnswer call, RateLimitService service, Buffer message) {
    RateLimitRequest request;
    try {
      request = RateLimitRequest.parseFrom(((BufferInternal) message).getByteBuf().nioBuffer());
    } catch (InvalidProtocolBufferException notARequest) {
      refuse(call, "not a RateLimitRequest: " + notARequest.getMessage());
      return;
    }
    call.deciding(DecisionSpan.current(METHOD_NAME), request.getDomain());
    service.shouldRateLimit(request, call);
  }

  private static void refuse(GrpcAnswer call, String reason) {
    call.status(GrpcStatus.INVALID_ARGUMENT, reason);
  }

  public int actualPort() {
    return listener.port();
  }

  @Override
  public Future<?> stop() {
    return listener.close();
  }
}
