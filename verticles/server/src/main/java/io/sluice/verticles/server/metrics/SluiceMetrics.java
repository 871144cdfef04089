package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.storage.Bound;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.protocol.binary.codec.RequestType;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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

  /** The methods {@code vertx_http_server_*} names; any other is counted as {@code OTHER}. */
  private static final Set<HttpMethod> KNOWN_METHODS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST,
      HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.PATCH, HttpMethod.OPTIONS, HttpMethod.TRACE, HttpMethod.CONNECT);

  private SluiceMetrics() {
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
   * Vert.x's own series with bounded labels. A client may send any token as an HTTP method, and
   * Vert.x's {@code method} label would keep one series per token for ever (and its own map of them,
   * which a meter filter applied afterwards cannot shrink), so that label is off and the method is
   * added here, mapped into a fixed set. Paths, routes, event-bus addresses (channel names) and
   * peer addresses are never labels.
   */
  public static MicrometerMetricsOptions vertxOptions() {
    return new MicrometerMetricsOptions()
        .setEnabled(true)
        .setLabels(EnumSet.of(Label.HTTP_CODE, Label.POOL_TYPE, Label.POOL_NAME, Label.EB_SIDE))
        .setServerRequestTagsProvider(request -> List.of(Tag.of("method", methodLabel(request))));
  }

  private static String methodLabel(HttpRequest request) {
    HttpMethod method = request.method();
    return KNOWN_METHODS.contains(method) ? method.name() : "OTHER";
  }

  /**
   * {@code sluice_shard_parcel_batches}: how many connection batches each event-bus message to a
   * shard carries, i.e. how well one loop turn's requests are gathered into one hop.
   */
  public static DistributionSummary parcelSizes(MeterRegistry registry) {
    return DistributionSummary.builder("sluice.shard.parcel.batches")
        .description("Batches carried by one event-bus message to a storage shard")
        .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256)
        .register(registry);
  }
}
