package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.sluice.verticles.rls.InvalidRateLimitRequest;
import io.sluice.verticles.rls.RateLimitService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
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
 * as the other fronts do. Any other method is UNIMPLEMENTED (vertx-grpc's answer); a request the
 * service refuses is INVALID_ARGUMENT with the reason; a failure on a shard is INTERNAL, logged once.
 */
public final class GrpcFrontVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(GrpcFrontVerticle.class.getName());

  public static final ServiceMethod<RateLimitRequest, RateLimitResponse> SHOULD_RATE_LIMIT = ServiceMethod.server(
      ServiceName.create("envoy.service.ratelimit.v3.RateLimitService"), "ShouldRateLimit",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(RateLimitRequest.newBuilder()));

  /** A request is a few hundred bytes; this bounds what one message may make the server hold. */
  private static final long MAX_MESSAGE_BYTES = 64 * 1024;

  private final String host;
  private final int port;
  private final EnvoyRateLimit rls;
  private HttpServer server;

  public GrpcFrontVerticle(String host, int port, EnvoyRateLimit rls) {
    this.host = host;
    this.port = port;
    this.rls = rls;
  }

  @Override
  public Future<?> start() {
    RateLimitService service = rls.service();
    GrpcServer grpc = GrpcServer.server(vertx, new GrpcServerOptions().setMaxMessageSize(MAX_MESSAGE_BYTES));
    grpc.callHandler(SHOULD_RATE_LIMIT, call -> call.handler(request -> answer(call, service, request)));
    server = vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(true).setTcpNoDelay(true))
        .requestHandler(grpc);
    return server.listen(port, host);
  }

  private static void answer(GrpcServerRequest<RateLimitRequest, RateLimitResponse> call, RateLimitService service,
                             RateLimitRequest request) {
    service.shouldRateLimit(request).whenComplete((response, failure) -> {
      if (failure == null) {
        call.response().end(response);
        return;
      }
      Throwable cause = RlsFailures.unwrap(failure);
      if (cause instanceof InvalidRateLimitRequest) {
        call.response().status(GrpcStatus.INVALID_ARGUMENT).statusMessage(cause.getMessage()).end();
      } else {
        LOG.log(System.Logger.Level.WARNING, "ShouldRateLimit for domain " + request.getDomain() + " failed: " + cause);
        call.response().status(GrpcStatus.INTERNAL).statusMessage(String.valueOf(cause.getMessage())).end();
      }
    });
  }

  public int actualPort() {
    return server.actualPort();
  }

  @Override
  public Future<?> stop() {
    return server.close();
  }
}
