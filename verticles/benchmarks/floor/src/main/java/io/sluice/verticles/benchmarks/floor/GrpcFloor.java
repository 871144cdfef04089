package io.sluice.verticles.benchmarks.floor;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.grpc.GrpcFrontVerticle;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.VerticleBase;
import io.vertx.grpc.server.GrpcServer;

/**
 * The floor of Envoy's ShouldRateLimit: what the gRPC stack costs when the answer costs nothing.
 * The gRPC port's own options ({@link GrpcFrontVerticle#serverOptions}, {@link GrpcFrontVerticle#grpcOptions})
 * and method on a Vert.x made as the gateway makes it, one server instance per loop, and for every
 * call an OK with one descriptor's status, made once: no parsing, no config, no shard, no metrics.
 * The gap between this and {@code bench grpc} against Sluice is Sluice's own.
 */
public final class GrpcFloor extends VerticleBase {

  /** What a fixed-window descriptor of {@code scripts/grpc/ratelimit.yaml} is answered, all but its counts. */
  static final RateLimitResponse ANSWER = RateLimitResponse.newBuilder()
      .setOverallCode(RateLimitResponse.Code.OK)
      .addStatuses(RateLimitResponse.DescriptorStatus.newBuilder().setCode(RateLimitResponse.Code.OK)
          .setCurrentLimit(RateLimitResponse.RateLimit.newBuilder().setRequestsPerUnit(-1)
              .setUnit(RateLimitResponse.RateLimit.Unit.SECOND))
          .setLimitRemaining(-2)
          .setDurationUntilReset(com.google.protobuf.Duration.newBuilder().setSeconds(1)))
      .build();

  private final int port;

  GrpcFloor(int port) {
    this.port = port;
  }

  @Override
  public Future<?> start() {
    GrpcServer grpc = GrpcServer.server(vertx, GrpcFrontVerticle.grpcOptions());
    grpc.callHandler(GrpcFrontVerticle.SHOULD_RATE_LIMIT, call -> call.handler(request -> call.response().end(ANSWER)));
    return vertx.createHttpServer(GrpcFrontVerticle.serverOptions(ListenerGuards.none(Clock.SYSTEM)))
        .requestHandler(grpc)
        .listen(port, "127.0.0.1");
  }

  /** {@code GrpcFloor [port, default 9891]}: serves until killed. */
  public static void main(String[] args) {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9891;
    int loops = Runtime.getRuntime().availableProcessors();
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
    vertx.deployVerticle(() -> new GrpcFloor(port), new DeploymentOptions().setInstances(loops))
        .onSuccess(id -> System.out.println("gRPC floor serving on 127.0.0.1:" + port + " with " + loops
            + " event loop(s)"))
        .onFailure(failure -> {
          failure.printStackTrace();
          System.exit(1);
        });
  }
}
