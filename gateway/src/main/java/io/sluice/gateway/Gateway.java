package io.sluice.gateway;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.protocol.binary.codec.PartialFrameBudget;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.front.ConnectionLimits;
import io.sluice.verticles.server.udp.UdpSettings;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A running Sluice process: one Vert.x, its verticles, and a clean stop on SIGTERM/SIGINT. */
public final class Gateway {

  private static final System.Logger LOG = System.getLogger(Gateway.class.getName());

  /** Requests decoded but unanswered on one connection before the server stops reading from it. */
  private static final int MAX_PENDING_REQUESTS = 65_536;

  private final Vertx vertx;
  private final SluiceServer server;

  private Gateway(Vertx vertx, SluiceServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  public static Gateway start(SluiceConfig config) throws Exception {
    HeapTuning.apply();
    int loops = config.eventLoops();
    // By default one event loop per core: shard i and front instance i then share loop i, so a key
    // whose shard is on the connection's own loop is served without a thread hop.
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true)
            .setMetricsOptions(SluiceMetrics.vertxOptions()))
        .withMetrics(new MicrometerMetricsFactory(metrics))
        .build();
    ServerSettings settings = new ServerSettings(config.valueSize(), config.shards(), loops,
        config.sweepIntervalMillis(),
        new ConnectionLimits(config.maxFrame(), config.maxPendingBytes(), MAX_PENDING_REQUESTS,
            new PartialFrameBudget(config.maxPartialBytes())),
        new TcpSettings(config.bind(), config.tcpPort()),
        new HttpSettings(config.bind(), config.httpPort(), config.allowedOrigins(), config.authToken(),
            config.allowedHosts()),
        new UdpSettings(config.bind(), config.udpPort(), UdpRules.load(config.rulesFile())), config.policies(),
        new PersistenceSettings(config.dataDir(), config.fsync(), config.snapshotInterval(), config.dataRecover()));
    try {
      SluiceServer server = SluiceServer.start(vertx, settings, Version.current(), Clock.SYSTEM, metrics)
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      LOG.log(System.Logger.Level.INFO, String.format(
          "Sluice %s serving Throttr on %s:%d, UDP on %s:%d, HTTP (/ws, /v1 check API, /metrics) on %s:%d (value size %s, %d shards, max frame %d bytes, %s transport)",
          Version.current(), config.bind(), server.tcpPort(), config.bind(), server.udpPort(), config.bind(), server.httpPort(),
          config.valueSize().label(), config.shards(), config.maxFrame(), transport(vertx)));
      LOG.log(System.Logger.Level.INFO, config.policies().isEmpty()
          ? "no check API policies (add a policies: section to the --config file)"
          : "check API policies: " + config.policies().all());
      return new Gateway(vertx, server);
    } catch (Exception e) {
      vertx.close();
      throw new Exception(rootMessage(e), e);
    }
  }

  public SluiceServer server() {
    return server;
  }

  /** The socket transport in use: {@code epoll} (Linux, the default) or {@code NIO}. */
  public String transport() {
    return transport(vertx);
  }

  private static String transport(Vertx vertx) {
    return vertx.isNativeTransportEnabled() ? "epoll" : "NIO";
  }

  /** Blocks until SIGTERM or SIGINT, then undeploys everything and closes Vert.x. */
  public void awaitShutdownOnSignal() throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.log(System.Logger.Level.INFO, "Sluice stopping");
      try {
        stop();
      } finally {
        stopped.countDown();
      }
    }, "sluice-shutdown"));
    stopped.await();
  }

  public void stop() {
    try {
      server.stop().eventually(vertx::close).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      LOG.log(System.Logger.Level.INFO, "Sluice stopped");
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "unclean stop: " + rootMessage(e));
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }
}
