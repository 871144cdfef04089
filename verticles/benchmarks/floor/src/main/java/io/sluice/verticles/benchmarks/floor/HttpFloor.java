package io.sluice.verticles.benchmarks.floor;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.http.HttpFrontVerticle;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

import java.nio.charset.StandardCharsets;

/**
 * The floor of the HTTP check API: what Sluice's HTTP stack costs when the answer costs nothing.
 * The HTTP port's own server options ({@link HttpFrontVerticle#serverOptions}) on a Vert.x made as
 * the gateway makes it (one event loop per core, the native transport), one server instance per
 * loop, and for every request a check answer's status, header fields and body, made once: no
 * router, no policy, no shard, no metrics. The gap between this and the check API is Sluice's own.
 */
public final class HttpFloor extends VerticleBase {

  /** The check API's answer to a key's first check by floors.sh's policy {@code tb} (token bucket, burst 5, 5/s). */
  static final String BODY = "{\"allowed\":true,\"limit\":5,\"remaining\":4,\"reset\":0,\"retry_after\":0}";
  private static final Buffer ANSWER = Buffer.buffer(BODY.getBytes(StandardCharsets.US_ASCII));
  private static final CharSequence JSON = HttpHeaders.createOptimized("application/json");
  private static final CharSequence RATELIMIT_POLICY = HttpHeaders.createOptimized("RateLimit-Policy");
  private static final CharSequence RATELIMIT = HttpHeaders.createOptimized("RateLimit");
  private static final CharSequence POLICY_FIELD = HttpHeaders.createOptimized("\"tb\";q=5;w=1");
  private static final CharSequence LIMIT_FIELD = HttpHeaders.createOptimized("\"tb\";r=4;t=0");

  private final int port;

  HttpFloor(int port) {
    this.port = port;
  }

  @Override
  public Future<?> start() {
    return vertx.createHttpServer(HttpFrontVerticle.serverOptions(ListenerGuards.none(Clock.SYSTEM),
            ConnectionLimits.DEFAULT_MAX_FRAME))
        .requestHandler(request -> {
          MultiMap headers = request.response().headers();
          headers.add(HttpHeaders.CONTENT_TYPE, JSON).add(RATELIMIT_POLICY, POLICY_FIELD).add(RATELIMIT, LIMIT_FIELD);
          request.response().end(ANSWER);
        })
        .listen(port, "127.0.0.1");
  }

  /** {@code HttpFloor [port, default 9890]}: serves until killed. */
  public static void main(String[] args) {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9890;
    int loops = Runtime.getRuntime().availableProcessors();
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
    vertx.deployVerticle(() -> new HttpFloor(port), new DeploymentOptions().setInstances(loops))
        .onSuccess(id -> System.out.println("HTTP floor serving on 127.0.0.1:" + port + " with " + loops
            + " event loop(s)"))
        .onFailure(failure -> {
          failure.printStackTrace();
          System.exit(1);
        });
  }
}
