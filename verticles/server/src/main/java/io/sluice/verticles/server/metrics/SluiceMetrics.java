package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.storage.Bound;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.protocol.binary.codec.RequestType;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * Sluice's own series, next to Vert.x's, read straight from the figures the instance already keeps
 * (no second set of counters on the hot path). Prometheus names: {@code sluice_requests_total}
 * (protocols tcp and websocket here; udp and http are counted by their verticles),
 * {@code sluice_keys}, {@code sluice_expired_records_reclaimed_total}, {@code sluice_connections},
 * {@code sluice_channels}, {@code sluice_channel_subscriptions}, {@code sluice_pushes_dropped_total}.
 * Store figures are read from another thread: a gauge a moment stale is fine.
 *
 * <p>No label value comes from a client unbounded: every series here is labelled from fixed enums,
 * shard numbers and configured policies, and {@link #vertxOptions()} keeps Vert.x's own series the same.
 */
public final class SluiceMetrics {

  private SluiceMetrics() {
  }

  /**
   * The registry {@code /metrics} serves, without Vert.x's in-flight gauges. Vert.x registers those
   * ({@code vertx.net.server.active.connections}, {@code vertx.http.server.active.requests}, their
   * client twins…) again for every connection or request; with the bounded label set of
   * {@link #vertxOptions()} each registration after the first has the same name and tags, which
   * Micrometer ignores with a WARNING. Pool gauges are
   * registered once per pool and stay. Connections are counted by {@code sluice_connections}.
   */
  public static PrometheusMeterRegistry newRegistry() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().meterFilter(MeterFilter.deny(SluiceMetrics::isRegisteredPerEvent));
    return registry;
  }

  private static boolean isRegisteredPerEvent(Meter.Id id) {
    return id.getType() == Meter.Type.GAUGE && id.getName().startsWith("vertx.") && !id.getName().startsWith("vertx.pool.");
  }

  public static void bind(MeterRegistry registry, Instance instance, List<Store> shards) {
    for (ConnectionStats.Protocol protocol : ConnectionStats.Protocol.values()) {
      for (RequestType type : RequestType.values()) {
        RequestMeters.readFrom(registry, protocol.name().toLowerCase(Locale.ROOT), type.name().toLowerCase(Locale.ROOT),
            instance.counters(), counters -> counters.total(protocol, type.code()));
      }
    }
    for (int i = 0; i < shards.size(); i++) {
      Store store = shards.get(i);
      String shard = Integer.toString(i);
      Gauge.builder("sluice.keys", store, Store::size)
          .description("Records held by a storage shard (expired ones not yet swept included)")
          .tag("shard", shard)
          .register(registry);
      FunctionCounter.builder("sluice.expired.records.reclaimed", store, Store::expiredReclaimed)
          .description("Expired records reclaimed, by lookups and by the background sweep")
          .tag("shard", shard)
          .register(registry);
    }
    bindRecordLimits(registry, instance, shards);
    Gauge.builder("sluice.connections", instance.connections(), registry1 -> registry1.size())
        .description("Open client connections (TCP and WebSocket)")
        .register(registry);
    Gauge.builder("sluice.channels", instance.channels(), channels -> channels.totalChannels())
        .description("Channels with at least one subscriber")
        .register(registry);
    Gauge.builder("sluice.channel.subscriptions", instance.channels(), channels -> channels.totalSubscriptions())
        .description("Subscription records, the two automatic ones per connection included")
        .register(registry);
    FunctionCounter.builder("sluice.pushes.dropped", instance.channels(), channels -> channels.droppedPushes())
        .description("Channel messages not pushed because the subscriber was not reading (slow-consumer policy)")
        .register(registry);
  }

  /**
   * The series every Java service has, from Micrometer's binders (JVM memory, GC, threads, classes;
   * process CPU, uptime and file descriptors), and {@code sluice_build_info{version,java}} = 1.
   *
   * @return what to close when the server stops: the GC binder listens to the JVM until closed
   */
  public static AutoCloseable bindStandard(MeterRegistry registry, String version) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    Gauge.builder("sluice.build.info", () -> 1)
        .description("Always 1; the labels say which Sluice and which Java run here")
        .tag("version", version)
        .tag("java", System.getProperty("java.version", "unknown"))
        .register(registry);
    return gc;
  }

  /**
   * The memory bound: {@code sluice_evicted_keys_total{reason}} (reason {@code max-keys} or
   * {@code max-memory}), {@code sluice_rejected_keys_total}, {@code sluice_record_memory_bytes{shard}}
   * (the estimate the bound is held to), and the limits the shards enforce together as
   * {@code sluice_max_keys} and {@code sluice_max_memory_bytes} (absent when unlimited).
   */
  private static void bindRecordLimits(MeterRegistry registry, Instance instance, List<Store> shards) {
    // Micrometer holds the counted object weakly: the instance lives as long as the server, the
    // caller's list of stores may not, so the sums keep the list and are hung on the instance.
    for (Bound reason : Bound.values()) {
      FunctionCounter.builder("sluice.evicted.keys", instance, ignored -> sum(shards, store -> store.evicted(reason)))
          .description("Live records evicted to keep the shards within a limit (--eviction volatile-ttl)")
          .tag("reason", reason.label())
          .register(registry);
    }
    FunctionCounter.builder("sluice.rejected.keys", instance, ignored -> sum(shards, Store::rejected))
        .description("New records (or buffer growth) refused because a shard was full")
        .register(registry);
    for (int i = 0; i < shards.size(); i++) {
      Gauge.builder("sluice.record.memory", shards.get(i), Store::estimatedBytes)
          .description("Estimated heap bytes of a storage shard's records, as --max-memory counts them")
          .baseUnit("bytes")
          .tag("shard", Integer.toString(i))
          .register(registry);
    }
    long maxKeys = sum(shards, store -> store.limits().maxRecords());
    if (shards.stream().noneMatch(store -> store.limits().maxRecords() == StoreLimits.UNLIMITED)) {
      Gauge.builder("sluice.max.keys", () -> maxKeys)
          .description("Records the shards together may hold (--max-keys, rounded down to a multiple of the shard count)")
          .register(registry);
    }
    long maxBytes = sum(shards, store -> store.limits().maxBytes());
    if (shards.stream().noneMatch(store -> store.limits().maxBytes() == StoreLimits.UNLIMITED)) {
      Gauge.builder("sluice.max.memory", () -> maxBytes)
          .description("Estimated record memory the shards together may hold (--max-memory)")
          .baseUnit("bytes")
          .register(registry);
    }
  }

  private static long sum(List<Store> stores, java.util.function.ToLongFunction<Store> figure) {
    long total = 0;
    for (Store store : stores) {
      total += figure.applyAsLong(store);
    }
    return total;
  }

  /**
   * Vert.x's own series with bounded labels: paths, routes and peer addresses are never labels. The
   * HTTP server's series are kept by {@link HttpServerMeters} (through {@link VertxMeters}), which
   * maps the method a client sends into a fixed set.
   *
   * <p>No event-bus series: Vert.x looks up (or registers) several meters for every message it
   * sends, writes, reads and delivers, and the event bus carries the hot path (a cluster's forwarded
   * requests and their replies, the batches for shards on other loops). Profiled at one request at a
   * time through a node that owns no key, that was 14 % of the owner's event loop, more than the
   * shard's own work (9 %), and 6 % of the forwarding node's. What travels is counted by Sluice's
   * own series ({@code sluice_cluster_forwarded_*}, {@code sluice_shard_parcel_batches}).
   */
  public static MicrometerMetricsOptions vertxOptions() {
    return new MicrometerMetricsOptions()
        .setEnabled(true)
        .addDisabledMetricsCategory(MetricsDomain.EVENT_BUS)
        .setLabels(EnumSet.of(Label.HTTP_CODE, Label.POOL_TYPE, Label.POOL_NAME));
  }

  /**
   * {@code sluice_shard_parcel_batches}: how many connection batches each event-bus message to a
   * shard carries, i.e. how well one loop turn's requests are gathered into one hop. An internal
   * series, registered only with {@code --internal-metrics}.
   */
  public static DistributionSummary parcelSizes(MeterRegistry registry) {
    return DistributionSummary.builder("sluice.shard.parcel.batches")
        .description("Batches carried by one event-bus message to a storage shard")
        .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256)
        .register(registry);
  }
}
