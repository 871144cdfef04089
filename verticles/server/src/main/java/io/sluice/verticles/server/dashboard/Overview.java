package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.instance.RequestCounters;
import io.sluice.verticles.engine.shard.ShardSummary;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.shard.ShardQueries;
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

  /** Asks every shard for its summary, then builds the overview. */
  static Future<JsonObject> collect(ShardQueries shards, Instance instance, PersistentShards persistence) {
    return shards.summaries().map(summaries -> build(instance, summaries).put("persistence", persistence.overview()));
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
      perShard.add(new JsonObject().put("shard", i).put("keys", summary.records()));
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
        .put("pushesDropped", instance.channels().droppedPushes())
        .put("shards", perShard);
  }
}
