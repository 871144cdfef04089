package io.sluice.verticles.server.grpc;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.sluice.verticles.server.health.Readiness;
import io.vertx.core.Future;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;

/**
 * gRPC's health service ({@code grpc.health.v1.Health/Check}) on the gRPC port, as
 * envoyproxy/ratelimit serves it for Kubernetes gRPC probes and Envoy Gateway: the service
 * {@value #RATE_LIMIT_SERVICE} is SERVING while the instance is {@link Readiness ready} and
 * NOT_SERVING otherwise (a config missing, a shard not answering, draining); the server as a whole
 * ({@code ""}) is SERVING until it drains to stop, as a liveness probe wants it; any other name is
 * NOT_FOUND, as grpc-java's and grpc-go's health servers answer it. {@code Watch} is not served:
 * vertx-grpc answers it UNIMPLEMENTED, as any method not served.
 */
final class GrpcHealth {

  static final ServiceMethod<HealthCheckRequest, HealthCheckResponse> CHECK = ServiceMethod.server(
      ServiceName.create("grpc.health.v1.Health"), "Check", GrpcMessageEncoder.encoder(),
      GrpcMessageDecoder.decoder(HealthCheckRequest.newBuilder()));

  /** The name envoyproxy/ratelimit's health checker registers its status under. */
  static final String RATE_LIMIT_SERVICE = "ratelimit";
  /** The whole server's name in the health protocol. */
  static final String SERVER = "";

  private GrpcHealth() {
  }

  /** Serves Check on {@code grpc}, with the readiness of the calling event loop. */
  static void serve(GrpcServer grpc, Readiness readiness) {
    Readiness.Probe probe = readiness.probe();
    grpc.callHandler(CHECK, call -> {
      boolean[] received = {false};
      call.handler(request -> {
        if (!received[0]) {
          received[0] = true;
          check(probe, readiness, request.getService()).onComplete(status -> answer(call, status.result()));
        }
      });
      call.invalidMessageHandler(invalid -> {
        received[0] = true;
        call.response().status(GrpcStatus.INVALID_ARGUMENT)
            .statusMessage("not a HealthCheckRequest: " + invalid.getMessage()).end();
      });
      call.endHandler(end -> {
        if (!received[0]) {
          call.response().status(GrpcStatus.INVALID_ARGUMENT)
              .statusMessage("a Check call carries one HealthCheckRequest; this one carried none").end();
        }
      });
    });
  }

  /** The status of one service name; null for a name not known here. */
  private static Future<ServingStatus> check(Readiness.Probe probe, Readiness readiness, String service) {
    return switch (service) {
      case SERVER -> Future.succeededFuture(readiness.isDraining() ? ServingStatus.NOT_SERVING : ServingStatus.SERVING);
      case RATE_LIMIT_SERVICE -> probe.check().transform(ready -> Future.succeededFuture(
          ready.succeeded() ? ServingStatus.SERVING : ServingStatus.NOT_SERVING));
      default -> Future.succeededFuture(null);
    };
  }

  private static void answer(GrpcServerRequest<HealthCheckRequest, HealthCheckResponse> call, ServingStatus status) {
    if (status == null) {
      call.response().status(GrpcStatus.NOT_FOUND).statusMessage("unknown service").end();
    } else {
      call.response().end(HealthCheckResponse.newBuilder().setStatus(status).build());
    }
  }
}
