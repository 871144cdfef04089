package io.sluice.verticles.server.grpc;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.sluice.verticles.server.health.Readiness;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import com.google.protobuf.InvalidProtocolBufferException;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * gRPC's health service ({@code grpc.health.v1.Health}, Check and Watch) on the gRPC port, as
 * envoyproxy/ratelimit serves it for Kubernetes gRPC probes and Envoy Gateway: the service
 * {@value #RATE_LIMIT_SERVICE} is SERVING while the instance is {@link Readiness ready} and
 * NOT_SERVING otherwise (a config missing, a shard not answering, draining); the server as a whole
 * ({@code ""}) is SERVING until it drains to stop, as a liveness probe wants it; any other name is
 * NOT_FOUND, as grpc-java's and grpc-go's health servers answer it.
 *
 * <p>{@code Watch} sends the status at once and again whenever it changes, looked at every
 * {@link #WATCH_PERIOD_MILLIS} ms, until the client cancels the stream or its connection closes;
 * an unknown name is SERVICE_UNKNOWN, as the protocol asks. The streams a connection may hold are
 * bounded as every stream is ({@link GrpcConnectionGuard}).
 */
final class GrpcHealth {

  private static final ServiceName HEALTH = ServiceName.create("grpc.health.v1.Health");
  /**
   * Requests are taken as bytes and parsed here, as ShouldRateLimit's are: bytes that are not a
   * request get INVALID_ARGUMENT (vertx-grpc's decoder would reset the stream), and a gzip
   * message is inflated within the bound.
   */
  static final ServiceMethod<Buffer, HealthCheckResponse> CHECK = ServiceMethod.server(HEALTH, "Check",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.IDENTITY);
  static final ServiceMethod<Buffer, HealthCheckResponse> WATCH = ServiceMethod.server(HEALTH, "Watch",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.IDENTITY);

  /** How often a Watch looks at the status: a change reaches the watcher within this. */
  static final long WATCH_PERIOD_MILLIS = 1000;

  /** The name envoyproxy/ratelimit's health checker registers its status under. */
  static final String RATE_LIMIT_SERVICE = "ratelimit";
  /** The whole server's name in the health protocol. */
  static final String SERVER = "";

  private GrpcHealth() {
  }

  /** Serves Check and Watch on {@code grpc}, with the readiness of the calling event loop. */
  static void serve(Vertx vertx, GrpcServer grpc, Readiness readiness) {
    Readiness.Probe probe = readiness.probe();
    grpc.callHandler(CHECK, call -> oneRequest(call, "Check", service ->
        check(probe, readiness, service).onComplete(status -> answer(call, status.result()))));
    grpc.callHandler(WATCH, call -> oneRequest(call, "Watch", service -> watch(vertx, call, () ->
        check(probe, readiness, service).map(status -> status == null ? ServingStatus.SERVICE_UNKNOWN : status))));
  }

  /** Hands the service name of the call's one request to {@code answer}; a call without one is INVALID_ARGUMENT. */
  private static void oneRequest(GrpcServerRequest<Buffer, HealthCheckResponse> call, String method,
                                 Consumer<String> answer) {
    boolean[] received = {false};
    call.messageHandler(message -> {
      if (received[0]) {
        return;
      }
      received[0] = true;
      try {
        Buffer bytes = MessagePayload.of(message, GrpcFrontVerticle.MAX_MESSAGE_BYTES);
        answer.accept(HealthCheckRequest.parseFrom(bytes.getBytes()).getService());
      } catch (MessagePayload.Refused refused) {
        refused.describeIn(call.response().headers());
        refuse(call, refused.status(), refused.getMessage());
      } catch (InvalidProtocolBufferException notARequest) {
        refuse(call, GrpcStatus.INVALID_ARGUMENT, "not a HealthCheckRequest: " + notARequest.getMessage());
      }
    });
    call.endHandler(end -> {
      if (!received[0]) {
        refuse(call, GrpcStatus.INVALID_ARGUMENT, "a " + method + " call carries one HealthCheckRequest; this one carried none");
      }
    });
  }

  private static void refuse(GrpcServerRequest<Buffer, HealthCheckResponse> call, GrpcStatus status, String reason) {
    try {
      call.response().status(status).statusMessage(reason).end();
    } catch (IllegalStateException alreadyAnswered) {
      // vertx-grpc has answered it already: a message over the size limit is RESOURCE_EXHAUSTED.
    }
  }

  /**
   * Sends the status now and on each change, until the stream is cancelled or its connection
   * closes (a failed write says so too).
   */
  private static void watch(Vertx vertx, GrpcServerRequest<Buffer, HealthCheckResponse> call,
                            Supplier<Future<ServingStatus>> status) {
    ServingStatus[] sent = {null};
    long[] timer = {-1};
    boolean[] over = {false};
    Runnable stop = () -> {
      over[0] = true;
      vertx.cancelTimer(timer[0]);
    };
    Runnable look = () -> status.get().onSuccess(now -> {
      if (now != sent[0] && !over[0]) {
        sent[0] = now;
        call.response().write(HealthCheckResponse.newBuilder().setStatus(now).build()).onFailure(gone -> stop.run());
      }
    });
    call.errorHandler(cancelled -> stop.run());
    call.exceptionHandler(closed -> stop.run());
    call.response().exceptionHandler(closed -> stop.run());
    look.run();
    if (!over[0]) {
      timer[0] = vertx.setPeriodic(WATCH_PERIOD_MILLIS, id -> look.run());
    }
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

  private static void answer(GrpcServerRequest<Buffer, HealthCheckResponse> call, ServingStatus status) {
    if (status == null) {
      call.response().status(GrpcStatus.NOT_FOUND).statusMessage("unknown service").end();
    } else {
      call.response().end(HealthCheckResponse.newBuilder().setStatus(status).build());
    }
  }
}
