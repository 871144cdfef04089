package io.sluice.verticles.server.kit;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.engine.udp.stats.KeyStatistics;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.cluster.ClusterSettings;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.udp.UdpSettings;

import java.util.List;
import java.util.Optional;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A whole Sluice instance on loopback with a hand-moved clock, for tests over real sockets. */
public final class SluiceUnderTest implements AutoCloseable {

  public static final String VERSION = "test";
  private static final String LOOPBACK = "127.0.0.1";

  private final Vertx vertx;
  private final ManualClock clock;
  private final PrometheusMeterRegistry metrics;
  private final SluiceServer server;
  private final Runnable afterClose;

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize) {
    this(vertx, valueSize, 8096);
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, int maxFrame) {
    this(vertx, valueSize, new ConnectionLimits(maxFrame, 1 << 20, 65_536));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits) {
    this(vertx, valueSize, limits, new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()));
  }

  /** Default connection limits, the given HTTP front settings (origins, token); the HTTP port is always ephemeral. */
  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, HttpSettings http) {
    this(vertx, valueSize, new ConnectionLimits(8096, 1 << 20, 65_536), http);
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http) {
    this(vertx, valueSize, limits, http, RuleSet.allowAll());
  }

  public SluiceUnderTest(Vertx vertx, RuleSet udpRules) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536),
        new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()),
        udpRules);
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules) {
    this(vertx, valueSize, limits, http, udpRules, Policies.none());
  }

  /** The HTTP check API with these policies; no auth token. */
  public SluiceUnderTest(Vertx vertx, Policies policies) {
    this(vertx, policies, new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()));
  }

  /** The HTTP check API with these policies and HTTP front settings (an auth token, say). */
  public SluiceUnderTest(Vertx vertx, Policies policies, HttpSettings http) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536), http, RuleSet.allowAll(), policies);
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                         Policies policies) {
    this(vertx, valueSize, limits, http, udpRules, policies, io.sluice.verticles.server.metrics.SluiceMetrics.newRegistry());
  }

  /**
   * @param metrics what /metrics serves; the registry the Vert.x was built with, to see Vert.x's own
   *                series there too
   */
  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                         Policies policies, PrometheusMeterRegistry metrics) {
    this(vertx, valueSize, limits, http, udpRules, policies, metrics, OperatorSettings.defaults(), StoreLimits.unlimited(),
        RlsSettings.disabled(), Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Default everything but the listeners' defences (TLS, connection and time bounds). */
  public SluiceUnderTest(Vertx vertx, Defences defences) {
    this(vertx, new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), defences);
  }

  /** These per-connection limits and defences. */
  public SluiceUnderTest(Vertx vertx, ConnectionLimits limits, Defences defences) {
    this(vertx, ValueSize.UINT16, limits, new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), RuleSet.allowAll(),
        Policies.none(), SluiceMetrics.newRegistry(), OperatorSettings.defaults(), StoreLimits.unlimited(),
        RlsSettings.disabled(), defences, KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** The given HTTP front settings (a token, say) and defences. */
  public SluiceUnderTest(Vertx vertx, HttpSettings http, Defences defences) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536), http, RuleSet.allowAll(), Policies.none(),
        SluiceMetrics.newRegistry(), OperatorSettings.defaults(), StoreLimits.unlimited(), RlsSettings.disabled(), defences, KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Policies and operator settings (internal metrics, the configuration the admin API shows). */
  public SluiceUnderTest(Vertx vertx, Policies policies, HttpSettings http, OperatorSettings operator) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536), http, RuleSet.allowAll(), policies,
        SluiceMetrics.newRegistry(), operator, StoreLimits.unlimited(), RlsSettings.disabled(), Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Records held under {@code recordLimits}, UDP statistics for at most {@code udpMaxStatsKeys} keys. */
  public SluiceUnderTest(Vertx vertx, RuleSet udpRules, StoreLimits recordLimits, int udpMaxStatsKeys) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536), new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()),
        udpRules, Policies.none(), SluiceMetrics.newRegistry(), OperatorSettings.defaults(), recordLimits, RlsSettings.disabled(),
        Defences.defaults(), udpMaxStatsKeys);
  }

  /** Records held under {@code recordLimits} (instance-wide: each of the 2 shards holds half). */
  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, RuleSet udpRules, Policies policies, StoreLimits recordLimits) {
    this(vertx, valueSize, new ConnectionLimits(8096, 1 << 20, 65_536), new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()),
        udpRules, policies, SluiceMetrics.newRegistry(), OperatorSettings.defaults(), recordLimits, RlsSettings.disabled(),
        Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                         Policies policies, PrometheusMeterRegistry metrics, OperatorSettings operator,
                         StoreLimits recordLimits) {
    this(vertx, valueSize, limits, http, udpRules, policies, metrics, operator, recordLimits, RlsSettings.disabled(),
        Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Envoy's rate limit service and these listener defences (TLS, say); the rest as by default. */
  public SluiceUnderTest(Vertx vertx, RlsSettings rls, Defences defences) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536),
        new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), RuleSet.allowAll(), Policies.none(),
        SluiceMetrics.newRegistry(), OperatorSettings.defaults(), StoreLimits.unlimited(), rls, defences, KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Envoy's rate limit service with these settings (its port is made ephemeral); the rest as by default. */
  public SluiceUnderTest(Vertx vertx, RlsSettings rls) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536),
        new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), RuleSet.allowAll(), Policies.none(),
        SluiceMetrics.newRegistry(), OperatorSettings.defaults(), StoreLimits.unlimited(), rls, Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Envoy's rate limit service with these settings and these limits on a connection (--max-pending-bytes, say). */
  public SluiceUnderTest(Vertx vertx, RlsSettings rls, ConnectionLimits limits) {
    this(vertx, ValueSize.UINT16, limits, new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), RuleSet.allowAll(),
        Policies.none(), SluiceMetrics.newRegistry(), OperatorSettings.defaults(), StoreLimits.unlimited(), rls,
        Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  /** Every way of rate limiting: UDP rules, check policies and Envoy's rate limit service; the rest as by default. */
  public SluiceUnderTest(Vertx vertx, RuleSet udpRules, Policies policies, RlsSettings rls) {
    this(vertx, ValueSize.UINT16, new ConnectionLimits(8096, 1 << 20, 65_536),
        new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()), udpRules, policies,
        SluiceMetrics.newRegistry(), OperatorSettings.defaults(), StoreLimits.unlimited(), rls, Defences.defaults(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  private SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                          Policies policies, PrometheusMeterRegistry metrics, OperatorSettings operator,
                          StoreLimits recordLimits, RlsSettings rls, Defences defences, int udpMaxStatsKeys) {
    this.vertx = vertx;
    this.metrics = metrics;
    this.clock = new ManualClock();
    this.afterClose = () -> { };
    // Every listener binds where the HTTP settings say (loopback but in tests of exposed listeners).
    ServerSettings settings = new ServerSettings(valueSize, 2, 2, 100, limits, new TcpSettings(http.bind(), 0),
        new HttpSettings(http.bind(), 0, http.allowedOrigins(), http.authToken(), http.allowedHosts()),
        new UdpSettings(http.bind(), 0, udpRules, udpMaxStatsKeys), policies, operator, ClusterSettings.NONE, recordLimits,
        new RlsSettings(LOOPBACK, rls.port() < 0 ? -1 : 0, rls.config(), rls.responseHeaders()), defences, PersistenceSettings.OFF);
    this.server = await(SluiceServer.start(vertx, settings, VERSION, clock, metrics));
  }

  /**
   * A server with these settings and clock on {@code vertx} (a clustered one, say); closing it
   * stops the server, then runs {@code afterClose} (the other nodes of its cluster).
   */
  public SluiceUnderTest(Vertx vertx, ServerSettings settings, ManualClock clock, Runnable afterClose) {
    this.vertx = vertx;
    this.metrics = SluiceMetrics.newRegistry();
    this.clock = clock;
    this.afterClose = afterClose;
    this.server = await(SluiceServer.start(vertx, settings, VERSION, clock, metrics));
  }

  /** What /metrics serves. */
  public PrometheusMeterRegistry metrics() {
    return metrics;
  }

  /** Persisting as {@code persistence} says (a data directory, an fsync policy), all else default. */
  public SluiceUnderTest(Vertx vertx, PersistenceSettings persistence) {
    this(vertx, new ServerSettings(ValueSize.UINT16, 2, 2, 100, new ConnectionLimits(8096, 1 << 20, 65_536),
        new TcpSettings(LOOPBACK, 0), new HttpSettings(LOOPBACK, 0, List.of(), Optional.empty()),
        new UdpSettings(LOOPBACK, 0, RuleSet.allowAll()), Policies.none(), persistence), new ManualClock(), () -> { });
  }


  public SluiceServer server() {
    return server;
  }

  public int udpPort() {
    return server.udpPort();
  }

  public int httpPort() {
    return server.httpPort();
  }

  public int grpcPort() {
    return server.grpcPort();
  }

  public int tcpPort() {
    return server.tcpPort();
  }

  public ManualClock clock() {
    return clock;
  }

  public void advance(Duration duration) {
    clock.advance(duration);
  }

  public Vertx vertx() {
    return vertx;
  }

  @Override
  public void close() {
    await(server.stop());
    afterClose.run();
  }

  /** Blocks the test thread on a future that must fail, and answers why it did. */
  public static Throwable awaitFailure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("the attempt did not finish: " + e, e);
    }
    throw new AssertionError("the attempt succeeded");
  }

  /** Blocks the test thread (never an event loop) on a future, with a generous bound. */
  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("future did not complete within 30 s; threads then:\n" + threadDump(), e);
    } catch (Exception e) {
      throw new AssertionError("future did not complete: " + e, e);
    }
  }

  /** Every thread's stack, so that a hang reported by {@link #await} says where things stood. */
  private static String threadDump() {
    StringBuilder dump = new StringBuilder();
    Thread.getAllStackTraces().forEach((thread, stack) -> {
      dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
      for (StackTraceElement frame : stack) {
        dump.append("    at ").append(frame).append('\n');
      }
    });
    return dump.toString();
  }
}
