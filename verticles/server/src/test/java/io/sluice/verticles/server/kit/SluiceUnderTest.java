package io.sluice.verticles.server.kit;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.udp.UdpSettings;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A whole Sluice instance on loopback with a hand-moved clock, for tests over real sockets. */
public final class SluiceUnderTest implements AutoCloseable {

  public static final String VERSION = "test";

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

  /**
   * A single node with these settings (built from {@link #defaults()} and the {@code with…} methods),
   * its own registry for /metrics.
   */
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
