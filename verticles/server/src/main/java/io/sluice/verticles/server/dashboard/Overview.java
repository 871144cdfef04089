package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.instance.RequestCounters;
import io.sluice.verticles.engine.shard.ShardSummary;
import io.sluice.verticles.engine.storage.Bound;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The overview of the instance (GET /api/overview, and every live update): INFO's figures, read the
 * way a Throttr INFO reads them (one summary per shard), plus the JVM's memory and the state of
 * persistence.
 */
final class Overview {

  /** Throttr commands in the order the dashboard shows them: by type code. */
  static final List<RequestType> COMMANDS = List.of(RequestType.values());

  private Overview() {
  }

  /**
   * Asks every shard for its summary, then builds the overview, with the limits' running totals,
   * what every way of rate limiting answered, persistence and whether this is a cluster node.
   */
  static Future<JsonObject> collect(ShardQueries shards, Instance instance, DashboardData data,
                                    PersistentShards persistence) {
    return shards.summaries().map(summaries -> {
      RateLimiting.Totals verdicts = RateLimiting.Totals.of(data);
      JsonObject overview = addLimits(build(instance, summaries), data)
          .put("rateLimiting", RateLimiting.json(data, verdicts))
          .put("persistence", persistence.overview())
          .put("clustered", data.clustered());
      JsonObject requests = overview.getJsonObject("requests");
      // Every kind of request the page's Requests card counts, read at the same moment as the verdicts.
      requests.put("all", requests.getLong("total") + verdicts.all().total());
      return overview;
    });
  }

  /**
   * {@code "limits": {"policies": {"name": {"allowed":…,"denied":…}}, "udp": {"overLimit":…,
   * "underLimit":…}}}: running totals, from which the page draws its per-second figures.
   */
  static JsonObject addLimits(JsonObject overview, DashboardData data) {
    JsonObject policies = new JsonObject();
    for (String name : data.policyNames()) {
      LimitActivity.PolicyActivity activity = data.activity().policy(name);
      policies.put(name, new JsonObject().put("allowed", activity.allowed()).put("denied", activity.denied()));
    }
    return overview.put("limits", new JsonObject().put("policies", policies).put("udp", new JsonObject()
        .put("overLimit", data.activity().udpOverLimit()).put("underLimit", data.activity().udpUnderLimit())));
  }

  /**
   * The memory bound: the record memory estimate and the limits it is held to (null when
   * unlimited), the same sums as the /metrics series, and what was evicted or refused to hold it.
   */
  static JsonObject bound(List<ShardSummary> shards) {
    long memory = 0;
    long maxKeys = 0;
    long maxMemory = 0;
    long rejected = 0;
    JsonObject evicted = new JsonObject();
    for (Bound reason : Bound.values()) {
      evicted.put(reason.label(), shards.stream().mapToLong(s -> s.evicted(reason)).sum());
    }
    for (ShardSummary shard : shards) {
      memory += shard.estimatedBytes();
      rejected += shard.rejected();
      maxKeys = saturatedSum(maxKeys, shard.limits().maxRecords());
      maxMemory = saturatedSum(maxMemory, shard.limits().maxBytes());
    }
    return new JsonObject()
        .put("recordMemoryBytes", memory)
        .put("maxMemoryBytes", maxMemory == StoreLimits.UNLIMITED ? null : maxMemory)
        .put("maxKeys", maxKeys == StoreLimits.UNLIMITED ? null : maxKeys)
        .put("eviction", shards.isEmpty() ? null : shards.get(0).limits().eviction().label())
        .put("evicted", evicted)
        .put("rejected", rejected);
  }

  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return sum < 0 || a == StoreLimits.UNLIMITED || b == StoreLimits.UNLIMITED ? StoreLimits.UNLIMITED : sum;
  }

  static JsonObject build(Instance instance, List<ShardSummary> shards) {
    long now = instance.clock().epochNanos();
    long records = 0;
    long counters = 0;
    long buffers = 0;
    long bufferBytes = 0;
    JsonArray perShard = new JsonArray();
    for (int i = 0; i < shards.size(); i++) {
      ShardSummary summary = shards.get(i);
      records += summary.records();
      counters += summary.counters();
      buffers += summary.buffers();
      bufferBytes += summary.bufferBytes();
      perShard.add(new JsonObject().put("shard", i).put("keys", summary.records())
          .put("memoryBytes", summary.estimatedBytes()));
    }
    RequestCounters requests = instance.counters();
    long[] totals = requests.totals();
    long[] perMinute = requests.perMinute();
    JsonArray byCommand = new JsonArray();
    long total = 0;
    long totalPerMinute = 0;
    for (RequestType command : COMMANDS) {
      int code = command.code();
      total += totals[code];
      totalPerMinute += perMinute[code];
      byCommand.add(new JsonObject().put("command", command.name()).put("total", totals[code])
          .put("perMinute", perMinute[code]));
    }
    Runtime runtime = Runtime.getRuntime();
    return new JsonObject()
        .put("version", instance.version())
        .put("startedAtMillis", TimeUnit.NANOSECONDS.toMillis(instance.startedAtNanos()))
        .put("uptimeSeconds", TimeUnit.NANOSECONDS.toSeconds(now - instance.startedAtNanos()))
        .put("connections", instance.connections().size())
        .put("udpPeers", instance.udpPeers().active(now).size())
        .put("keys", new JsonObject().put("total", records).put("counters", counters).put("buffers", buffers)
            .put("counterBytes", counters * instance.valueSize().bytes()).put("bufferBytes", bufferBytes))
        .put("channels", new JsonObject().put("channels", instance.channels().totalChannels())
            .put("subscriptions", instance.channels().totalSubscriptions()))
        .put("memory", new JsonObject().put("heapUsedBytes", runtime.totalMemory() - runtime.freeMemory())
            .put("heapCommittedBytes", runtime.totalMemory()).put("heapMaxBytes", runtime.maxMemory()))
        .put("bytes", new JsonObject()
            .put("read", instance.connections().totalReadBytes())
            .put("written", instance.connections().totalWriteBytes())
            .put("readPerMinute", requests.readBytesPerMinute())
            .put("writtenPerMinute", requests.writeBytesPerMinute()))
        .put("requests", new JsonObject().put("total", total).put("perMinute", totalPerMinute).put("byCommand", byCommand))
        .put("bound", bound(shards))
        .put("pushesDropped", instance.channels().droppedPushes())
        .put("shards", perShard);
  }
}
