package io.sluice.verticles.server.kit;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.udp.UdpSettings;

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

  /**
   * What these tests run by default: a single node of 2 shards and 2 instances of each front,
   * values of {@link ValueSize#UINT16} (what {@link KeyFrames} writes and a ThrottrClient speaks by
   * default), every listener on loopback's ephemeral ports, no gRPC listener.
   */
  public static ServerSettings defaults() {
    return ServerSettings.defaults().withValueSize(ValueSize.UINT16).withShards(2).withFrontInstances(2);
  }

  /**
   * {@link #defaults()} with the UDP front deciding by the shipped {@code deploy/rules/musicbrainz.yaml}
   * (what the UDP tests serve).
   */
  public static ServerSettings musicBrainzRules() {
    return defaults().withUdp(UdpSettings.defaults().withRules(MusicBrainzRulesFile.load()));
  }

  /** A single node with {@link #defaults()}, its own registry for /metrics. */
  public SluiceUnderTest(Vertx vertx) {
    this(vertx, defaults());
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize) {
    this(vertx, defaults().withValueSize(valueSize));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, int maxFrame) {
    this(vertx, defaults().withValueSize(valueSize).withLimits(ConnectionLimits.defaults().withMaxFrame(maxFrame)));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits) {
    this(vertx, defaults().withValueSize(valueSize).withLimits(limits));
  }

  /** Default connection limits, the given HTTP front settings (origins, token); the HTTP port is always ephemeral. */
  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, HttpSettings http) {
    this(vertx, listeningAs(defaults().withValueSize(valueSize), http));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http) {
    this(vertx, listeningAs(defaults().withValueSize(valueSize).withLimits(limits), http));
  }

  public SluiceUnderTest(Vertx vertx, RuleSet udpRules) {
    this(vertx, withUdpRules(defaults(), udpRules));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules) {
    this(vertx, withUdpRules(listeningAs(defaults().withValueSize(valueSize).withLimits(limits), http), udpRules));
  }

  /** The HTTP check API with these policies; no auth token. */
  public SluiceUnderTest(Vertx vertx, Policies policies) {
    this(vertx, defaults().withPolicies(policies));
  }

  /** The HTTP check API with these policies and HTTP front settings (an auth token, say). */
  public SluiceUnderTest(Vertx vertx, Policies policies, HttpSettings http) {
    this(vertx, listeningAs(defaults().withPolicies(policies), http));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                         Policies policies) {
    this(vertx, withUdpRules(listeningAs(defaults().withValueSize(valueSize).withLimits(limits), http), udpRules)
        .withPolicies(policies));
  }

  /**
   * @param metrics what /metrics serves; the registry the Vert.x was built with, to see Vert.x's own
   *                series there too
   */
  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                         Policies policies, PrometheusMeterRegistry metrics) {
    this(vertx, withUdpRules(listeningAs(defaults().withValueSize(valueSize).withLimits(limits), http), udpRules)
        .withPolicies(policies), metrics);
  }

  /** Default everything but the listeners' defences (TLS, connection and time bounds). */
  public SluiceUnderTest(Vertx vertx, Defences defences) {
    this(vertx, defaults().withDefences(defences));
  }

  /** These per-connection limits and defences. */
  public SluiceUnderTest(Vertx vertx, ConnectionLimits limits, Defences defences) {
    this(vertx, defaults().withLimits(limits).withDefences(defences));
  }

  /** The given HTTP front settings (a token, say) and defences. */
  public SluiceUnderTest(Vertx vertx, HttpSettings http, Defences defences) {
    this(vertx, listeningAs(defaults(), http).withDefences(defences));
  }

  /** Policies and operator settings (internal metrics, the configuration the admin API shows). */
  public SluiceUnderTest(Vertx vertx, Policies policies, HttpSettings http, OperatorSettings operator) {
    this(vertx, listeningAs(defaults(), http).withPolicies(policies).withOperator(operator));
  }

  /** Records held under {@code recordLimits}, UDP statistics for at most {@code udpMaxStatsKeys} keys. */
  public SluiceUnderTest(Vertx vertx, RuleSet udpRules, StoreLimits recordLimits, int udpMaxStatsKeys) {
    this(vertx, defaults().withUdp(UdpSettings.defaults().withRules(udpRules).withMaxStatsKeys(udpMaxStatsKeys))
        .withRecordLimits(recordLimits));
  }

  /** Records held under {@code recordLimits} (instance-wide: each of the 2 shards holds half). */
  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, RuleSet udpRules, Policies policies, StoreLimits recordLimits) {
    this(vertx, withUdpRules(defaults().withValueSize(valueSize), udpRules).withPolicies(policies)
        .withRecordLimits(recordLimits));
  }

  public SluiceUnderTest(Vertx vertx, ValueSize valueSize, ConnectionLimits limits, HttpSettings http, RuleSet udpRules,
                         Policies policies, PrometheusMeterRegistry metrics, OperatorSettings operator,
                         StoreLimits recordLimits) {
    this(vertx, withUdpRules(listeningAs(defaults().withValueSize(valueSize).withLimits(limits), http), udpRules)
        .withPolicies(policies).withOperator(operator).withRecordLimits(recordLimits), metrics);
  }

  /** Envoy's rate limit service and these listener defences (TLS, say); the rest as by default. */
  public SluiceUnderTest(Vertx vertx, RlsSettings rls, Defences defences) {
    this(vertx, withRls(defaults(), rls).withDefences(defences));
  }

  /** Envoy's rate limit service with these settings (its port is made ephemeral); the rest as by default. */
  public SluiceUnderTest(Vertx vertx, RlsSettings rls) {
    this(vertx, withRls(defaults(), rls));
  }

  /** Envoy's rate limit service with these settings and these limits on a connection (--max-pending-bytes, say). */
  public SluiceUnderTest(Vertx vertx, RlsSettings rls, ConnectionLimits limits) {
    this(vertx, withRls(defaults(), rls).withLimits(limits));
  }

  /** Every way of rate limiting: UDP rules, check policies and Envoy's rate limit service; the rest as by default. */
  public SluiceUnderTest(Vertx vertx, RuleSet udpRules, Policies policies, RlsSettings rls) {
    this(vertx, withRls(withUdpRules(defaults(), udpRules), rls).withPolicies(policies));
  }

  /** Persisting as {@code persistence} says (a data directory, an fsync policy), all else default. */
  public SluiceUnderTest(Vertx vertx, PersistenceSettings persistence) {
    this(vertx, defaults().withPersistence(persistence));
  }

  /** A single node with these settings, its own registry for /metrics. */
  public SluiceUnderTest(Vertx vertx, ServerSettings settings) {
    this(vertx, settings, SluiceMetrics.newRegistry());
  }

  /**
   * @param metrics what /metrics serves; the registry the Vert.x was built with, to see Vert.x's own
   *                series there too
   */
  public SluiceUnderTest(Vertx vertx, ServerSettings settings, PrometheusMeterRegistry metrics) {
    this(vertx, settings, metrics, new ManualClock(), () -> { });
  }

  /**
   * A server with these settings and clock on {@code vertx} (a clustered one, say); closing it
   * stops the server, then runs {@code afterClose} (the other nodes of its cluster).
   */
  public SluiceUnderTest(Vertx vertx, ServerSettings settings, ManualClock clock, Runnable afterClose) {
    this(vertx, settings, SluiceMetrics.newRegistry(), clock, afterClose);
  }

  private SluiceUnderTest(Vertx vertx, ServerSettings settings, PrometheusMeterRegistry metrics, ManualClock clock,
                          Runnable afterClose) {
    this.vertx = vertx;
    this.metrics = metrics;
    this.clock = clock;
    this.afterClose = afterClose;
    this.server = await(SluiceServer.start(vertx, settings, VERSION, clock, metrics));
  }

  /**
   * These HTTP front settings on an ephemeral port; the Throttr and UDP listeners bind where the
   * HTTP one does (loopback but in tests of exposed listeners).
   */
  private static ServerSettings listeningAs(ServerSettings settings, HttpSettings http) {
    return settings.withHttp(http.withListener(http.bind(), 0)).withTcp(new TcpSettings(http.bind(), 0))
        .withUdp(settings.udp().withListener(http.bind(), 0));
  }

  private static ServerSettings withUdpRules(ServerSettings settings, RuleSet rules) {
    return settings.withUdp(settings.udp().withRules(rules));
  }

  /** Envoy's rate limit service with these settings, its listener (if any) on loopback's ephemeral port. */
  private static ServerSettings withRls(ServerSettings settings, RlsSettings rls) {
    return settings.withRls(new RlsSettings(LOOPBACK, rls.port() < 0 ? -1 : 0, rls.config(), rls.responseHeaders()));
  }

  /** What /metrics serves. */
  public PrometheusMeterRegistry metrics() {
    return metrics;
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
