package io.sluice.gateway;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.verticles.server.Defences;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.tls.TlsEngine;
import io.sluice.verticles.server.tls.TlsSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.server.http.HttpSettings;
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

  private final java.time.Duration shutdownTimeout;

  private Gateway(Vertx vertx, SluiceServer server, java.time.Duration shutdownTimeout) {
    this.vertx = vertx;
    this.server = server;
    this.shutdownTimeout = shutdownTimeout;
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
            new PartialFrameBudget(config.maxPartialBytes()), config.maxSubscriptions()),
        new TcpSettings(config.tcpBind(), config.tcpPort()),
        new HttpSettings(config.httpBind(), config.httpPort(), config.allowedOrigins(), config.authToken(),
            config.allowedHosts()),
        new UdpSettings(config.udpBind(), config.udpPort(), UdpRules.load(config.rulesFile())), config.policies(),
        defences(config));
    try {
      SluiceServer server = SluiceServer.start(vertx, settings, Version.current(), Clock.SYSTEM, metrics)
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      LOG.log(System.Logger.Level.INFO, String.format(
          "Sluice %s serving Throttr on %s:%d, UDP on %s:%d, HTTP (/ws, /v1 check API, /metrics) on %s:%d (value size %s, %d shards, max frame %d bytes, %s transport)",
          Version.current(), config.tcpBind(), server.tcpPort(), config.udpBind(), server.udpPort(), config.httpBind(),
          server.httpPort(),
          config.valueSize().label(), config.shards(), config.maxFrame(), transport(vertx)));
      settings.defences().tls().ifPresent(tls -> LOG.log(System.Logger.Level.INFO, "TLS on the Throttr and HTTP ports ("
          + tls.engine().resolved().name().toLowerCase(java.util.Locale.ROOT) + " engine, TLS 1.2 and 1.3"
          + (tls.clientCa().isPresent() ? ", client certificates required" : "") + ")"));
      LOG.log(System.Logger.Level.INFO, config.policies().isEmpty()
          ? "no check API policies (add a policies: section to the --config file)"
          : "check API policies: " + config.policies().all());
      return new Gateway(vertx, server, config.shutdownTimeout());
    } catch (Exception e) {
      vertx.close();
      throw new Exception(rootMessage(e), e);
    }
  }

  /** The listeners' defences, from their options. */
  private static Defences defences(SluiceConfig config) {
    Defences defences = Defences.defaults()
        .withMaxConnections(config.maxConnections())
        .withIdleTimeout(config.idleTimeout())
        .withHttpBounds(config.httpRequestTimeout(), config.httpMaxHeaderBytes(), config.httpMaxHeaders())
        .withProtectedMode(config.protectedMode())
        .withMetricsAuth(config.metricsAuth());
    if (config.authTokenFile().isPresent()) {
      defences = defences.withAuthTokenFile(config.authTokenFile().get());
    }
    if (config.tlsCertificate().isPresent() && config.tlsKey().isPresent()) {
      defences = defences.withTls(new TlsSettings(config.tlsCertificate().get(), config.tlsKey().get(),
          config.tlsClientCa(), TlsEngine.valueOf(config.tlsEngine().toUpperCase(java.util.Locale.ROOT))));
    }
    return defences;
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

  /**
   * Drains (stop accepting, answer what was read, close; at most --shutdown-timeout), then undeploys
   * everything and closes Vert.x.
   */
  public void stop() {
    try {
      server.drain(shutdownTimeout).eventually(server::stop).eventually(vertx::close)
          .toCompletionStage().toCompletableFuture().get(shutdownTimeout.toMillis() + 10_000, TimeUnit.MILLISECONDS);
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
