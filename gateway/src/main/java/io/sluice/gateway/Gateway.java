package io.sluice.gateway;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.gateway.config.Reread;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.gateway.opentelemetry.Tracing;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.server.metrics.VertxMeters;
import io.sluice.verticles.rls.RlsConfig;
import io.sluice.verticles.rls.RlsConfigSource;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.sluice.verticles.server.cluster.ClusterSettings;
import io.sluice.verticles.server.cluster.HazelcastSetup;
import io.sluice.verticles.server.cluster.NodeIdentity;

import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.strategies.policy.Policies;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A running Sluice process: one Vert.x, its verticles, and a clean stop on SIGTERM/SIGINT. */
public final class Gateway {

  private static final System.Logger LOG = System.getLogger(Gateway.class.getName());

  private final Vertx vertx;
  private final SluiceServer server;
  private final Tracing tracing;

  private final java.time.Duration shutdownTimeout;
  private final CountDownLatch stoppedBySignal = new CountDownLatch(1);

  private Gateway(Vertx vertx, SluiceServer server, Tracing tracing, java.time.Duration shutdownTimeout) {
    this.vertx = vertx;
    this.server = server;
    this.tracing = tracing;
    this.shutdownTimeout = shutdownTimeout;
  }

  /** Starts with a configuration that SIGHUP reads again unchanged (tests, embedding). */
  public static Gateway start(SluiceConfig config) throws Exception {
    return start(config, () -> Reread.of(config));
  }

  /**
   * @param reread reads the configuration again from the same sources, for SIGHUP ({@link Reloader})
   */
  public static Gateway start(SluiceConfig config, Callable<Reread> reread) throws Exception {
    return start(config, reread, Clock.SYSTEM);
  }

  /** @param clock the time of expiry and of the one-minute statistics windows: a test's hand-moved one */
  public static Gateway start(SluiceConfig config, Callable<Reread> reread, Clock clock) throws Exception {
    return start(config, reread, clock, gateway -> { });
  }

  /**
   * Starts as the {@code sluice} command does: SIGTERM and SIGINT drain and stop it from the moment
   * its start line says it serves ({@link #awaitStop}).
   */
  public static Gateway startStoppingOnSignal(SluiceConfig config, Callable<Reread> reread) throws Exception {
    return start(config, reread, Clock.SYSTEM, Gateway::stopOnSignal);
  }

  /**
   * @param serving runs once the server serves, before the start line: whoever sees that line may
   *                signal the process at once
   */
  static Gateway start(SluiceConfig config, Callable<Reread> reread, Clock clock, Consumer<Gateway> serving)
      throws Exception {
    HeapTuning.apply();
    int loops = config.eventLoops();
    // By default one event loop per core: shard i and front instance i then share loop i, so a key
    // whose shard is on the connection's own loop is served without a thread hop.
    PrometheusMeterRegistry metrics = SluiceMetrics.newRegistry();
    VertxOptions options = new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true)
        .setMetricsOptions(SluiceMetrics.vertxOptions());
    ServerSettings settings = ServerSettingsMapping.of(config);
    ClusterSettings cluster = settings.cluster();
    if (cluster.enabled()) {
      // Before joining: a node that joins and then cannot listen has taken partitions for nothing.
      ListenerPorts.checkFree(config);
    }
    Optional<String> nodeId = cluster.enabled() ? Optional.of(NodeIdentity.of(config.dataDir())) : Optional.empty();
    Tracing tracing = Tracing.start(config.otelEndpoint(), config.otelServiceName(), config.otelSampleRatio(),
        Version.current(), nodeId);
    VertxBuilder builder = tracing.install(Vertx.builder().withMetrics(new VertxMeters(metrics)));
    Vertx vertx;
    try {
      vertx = nodeId.isPresent()
          ? joinCluster(builder, options, cluster, config, nodeId.get())
          : builder.with(options).build();
    } catch (Exception e) {
      tracing.stop();
      throw e;
    }
    try {
      SluiceServer server = SluiceServer.start(vertx, settings, Version.current(), clock, metrics)
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      // Before the start line: whoever sees it may send SIGHUP at once, and until the handler is
      // installed the JVM takes SIGHUP as SIGTERM and stops.
      reloadOnHangup(config, reread, metrics, server);
      Gateway gateway = new Gateway(vertx, server, tracing, config.shutdownTimeout());
      serving.accept(gateway);
      LOG.log(System.Logger.Level.INFO, StartLine.of(config, server, transport(vertx)));
      LOG.log(System.Logger.Level.INFO, tracing.description());
      LOG.log(System.Logger.Level.INFO, "records: at most " + (config.maxKeys() == Long.MAX_VALUE ? "unlimited" : config.maxKeys())
          + " keys and " + config.maxMemory() + " bytes estimated (" + config.origin(io.sluice.gateway.config.Options.MAX_MEMORY)
          + "), each of the " + config.shards() + " shards its share; when full: " + config.eviction().label());
      if (config.rlsXdsServer().isPresent()) {
        LOG.log(System.Logger.Level.INFO, String.format("Envoy rate limit service (%s) on %s:%d once the xDS server has"
            + " given a first config, POST /json on the HTTP port", StartLine.grpcTransport(config), config.bind(),
            config.grpcPort()));
      } else {
        LOG.log(System.Logger.Level.INFO, String.format("Envoy rate limit service (%s) on %s:%d, POST /json on the HTTP port; %s",
            StartLine.grpcTransport(config), config.bind(), server.grpcPort(), config.rlsConfig().map(path -> "domains "
                + server.rateLimitService().settings().config().get().domains().keySet().stream().sorted().toList()
                + " from " + path + " (watched)").orElse("no --rls-config: every descriptor is OK without a limit")));
      }
      settings.defences().tls().ifPresent(tls -> LOG.log(System.Logger.Level.INFO, "TLS on the Throttr, HTTP and gRPC ports ("
          + tls.engine().resolved().name().toLowerCase(java.util.Locale.ROOT) + " engine, TLS 1.2 and 1.3"
          + (tls.clientCa().isPresent() ? ", client certificates required" : "") + ")"));
      ExposureWarning.of(config).ifPresent(warning -> LOG.log(System.Logger.Level.WARNING, warning));
      ExposureWarning.ofCluster(config).ifPresent(warning -> LOG.log(System.Logger.Level.WARNING, warning));
      LOG.log(System.Logger.Level.INFO, config.policies().isEmpty()
          ? "no check API policies (add a policies: section to the --config file)"
          : "check API policies: " + config.policies().all());
      return gateway;
    } catch (Exception e) {
      vertx.close();
      tracing.stop();
      throw new Exception(rootMessage(e), e);
    }
  }

  /** SIGHUP, from now on, reads the configuration again and reloads what may change ({@link Reloader}). */
  private static void reloadOnHangup(SluiceConfig config, Callable<Reread> reread, PrometheusMeterRegistry metrics,
                                     SluiceServer server) {
    Reloader reloader = new Reloader(config, reread, metrics, Clock.SYSTEM, server.lastReload())
        .add("policies", next -> {
          Policies policies = next.policies();
          return () -> server.replacePolicies(policies).describe();
        })
        .add("udp rules", next -> {
          RuleSet rules = UdpRules.load(next.config().rulesFile());
          return () -> {
            server.replaceUdpRules(rules);
            return "udp rules read again";
          };
        });
    reloader.add("tls certificates and token file", next -> () -> {
      server.reload();
      return "tls certificates and token file read again";
    });
    RlsConfigSource rlsConfig = server.rateLimitService().settings().config();
    if (rlsConfig.path() != null) {
      reloader.add("rls config", next -> {
        RlsConfig read = rlsConfig.read();
        return () -> {
          server.rateLimitService().install(read);
          return "rls config domains " + read.domains().keySet().stream().sorted().toList();
        };
      });
    }
    HangupSignal.onHangup(reloader::reload);
  }

  /** A clustered Vert.x: bounded by the join timeout when named members are down. */
  private static Vertx joinCluster(VertxBuilder builder, VertxOptions options, ClusterSettings cluster, SluiceConfig config,
                                   String nodeId) throws Exception {
    try {
      Vertx vertx = HazelcastSetup.clusteredVertx(builder, options, cluster, config.valueSize(), nodeId)
          .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      LOG.log(System.Logger.Level.INFO, "cluster '" + cluster.name() + "' joined as " + cluster.host() + ":"
          + cluster.port() + (cluster.members().isEmpty() ? "" : " (members named: " + String.join(",", cluster.members()) + ")")
          + (cluster.credentials().required() ? "; members admitted by " + (config.clusterSecretFile().isPresent()
              ? "the shared secret" : "certificate") + ", keys and records between members on mutual TLS" : "; members prove nothing"));
      return vertx;
    } catch (Exception e) {
      throw new Exception("could not join cluster '" + cluster.name() + "': " + rootMessage(e), e);
    }
  }

  public SluiceServer server() {
    return server;
  }

  /** Whether Vert.x runs with a tracer: only with --otel-endpoint. */
  public boolean traced() {
    return ((io.vertx.core.internal.VertxInternal) vertx).tracer() != null;
  }

  /** The socket transport in use: {@code epoll} (Linux, the default) or {@code NIO}. */
  public String transport() {
    return transport(vertx);
  }

  private static String transport(Vertx vertx) {
    return vertx.isNativeTransportEnabled() ? "epoll" : "NIO";
  }

  /**
   * From now on SIGTERM and SIGINT drain and stop this gateway ({@link #stop}) before the JVM exits.
   * Without it, a signal ends the process with nothing drained and the last writes not persisted.
   */
  void stopOnSignal() {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.log(System.Logger.Level.INFO, "Sluice stopping");
      try {
        stop();
      } finally {
        stoppedBySignal.countDown();
      }
    }, "sluice-shutdown"));
  }

  /** Blocks until a signal stopped this gateway ({@link #startStoppingOnSignal}). */
  public void awaitStop() throws InterruptedException {
    stoppedBySignal.await();
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
    } finally {
      tracing.stop();
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
