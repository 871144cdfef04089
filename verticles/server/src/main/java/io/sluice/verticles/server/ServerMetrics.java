package io.sluice.verticles.server;

import io.sluice.verticles.server.settings.OperatorSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.server.persistence.PersistenceMetrics;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.Optional;

/**
 * A server's series: where its counters go (the scraped registry, or nowhere), and the statistics
 * windows of the instance, moved once a second.
 */
final class ServerMetrics {

  private static final MeterRegistry NO_METRICS = new CompositeMeterRegistry();

  private final Vertx vertx;
  /** Null when this server has no registry. */
  private final PrometheusMeterRegistry registry;
  private long windowTimer = -1;
  private AutoCloseable standardMetrics;

  ServerMetrics(Vertx vertx, PrometheusMeterRegistry registry) {
    this.vertx = vertx;
    this.registry = registry;
  }

  /** Where counters go: the scraped registry, or nowhere when this server has none. */
  MeterRegistry meters() {
    return registry != null ? registry : NO_METRICS;
  }

  /** What {@code /metrics} serves, when there is a registry. */
  Optional<PrometheusMeterRegistry> scraped() {
    return Optional.ofNullable(registry);
  }

  /** {@code sluice_request_duration_seconds} in the scraped registry, or nowhere. */
  RequestDurations durations() {
    return new RequestDurations(meters());
  }

  /** The instance's and its shards' series, then the statistics windows' clock. */
  void bind(Instance instance, List<Store> stores, ShardDirectory directory, OperatorSettings operator) {
    if (registry != null && operator.internalMetrics()) {
      directory.observeParcelSizes(SluiceMetrics.parcelSizes(registry)::record);
    }
    if (registry != null) {
      SluiceMetrics.bind(registry, instance, stores);
      standardMetrics = SluiceMetrics.bindStandard(registry, instance.version());
    }
    windowTimer = vertx.setPeriodic(1000, id -> instance.counters().rollTo(instance.currentWindow()));
  }

  void bind(PersistentShards persistence) {
    if (registry != null && persistence.enabled()) {
      PersistenceMetrics.bind(registry, persistence);
    }
  }

  void stopWindows() {
    vertx.cancelTimer(windowTimer);
  }

  /** Unbinds the JVM's series. */
  void close() {
    if (standardMetrics != null) {
      try {
        standardMetrics.close();
      } catch (Exception e) {
        System.getLogger(SluiceServer.class.getName()).log(System.Logger.Level.DEBUG, "closing the JVM metrics", e);
      }
    }
  }
}
