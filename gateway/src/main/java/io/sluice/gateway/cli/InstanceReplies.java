package io.sluice.gateway.cli;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.Listing;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * The commands about the whole instance (LIST, STATS, INFO, CONNECTIONS) and how their replies are
 * shown. Per-minute figures are those of the last whole minute before the server's last one-minute
 * tick (counted from its start), as the protocol defines them; the text says so rather than
 * suggesting a live rate.
 */
final class InstanceReplies {

  /** The footnote of every figure that moves at the server's minute ticks. */
  static final String MINUTE_NOTE = "whole minutes from the server's start: this minute's figures show after the next tick";

  private InstanceReplies() {
  }

  static Future<Result> list(ThrottrClient client, List<String> args) {
    return client.list().map(keys -> {
      StringBuilder text = new StringBuilder();
      JsonArray items = new JsonArray();
      for (Listing.KeyItem key : keys) {
        String type = key.keyType() == Listing.KeyItem.TYPE_COUNTER ? "counter" : "buffer";
        text.append(utf8(key.key())).append("  ").append(type).append("  ").append(key.bytesUsed()).append(" bytes\n");
        items.add(new JsonObject().put("key", utf8(key.key())).put("type", type).put("bytes", key.bytesUsed()));
      }
      text.append("(").append(count(keys.size(), "key")).append(")");
      return Result.ok(text.toString(), new JsonObject().put("keys", items));
    });
  }

  static Future<Result> stats(ThrottrClient client, List<String> args) {
    return client.stats().map(keys -> {
      StringBuilder text = new StringBuilder();
      JsonArray items = new JsonArray();
      for (Listing.KeyStatsItem key : keys) {
        text.append(utf8(key.key())).append("  reads ").append(key.readsPerMinute()).append(" last minute, ")
            .append(key.totalReads()).append(" total; writes ").append(key.writesPerMinute()).append(" last minute, ")
            .append(key.totalWrites()).append(" total\n");
        items.add(new JsonObject().put("key", utf8(key.key())).put("reads_per_minute", key.readsPerMinute())
            .put("writes_per_minute", key.writesPerMinute()).put("total_reads", key.totalReads())
            .put("total_writes", key.totalWrites()));
      }
      text.append("(").append(count(keys.size(), "key")).append("; ").append(MINUTE_NOTE).append(")");
      return Result.ok(text.toString(), new JsonObject().put("keys", items));
    });
  }

  /**
   * INFO's byte totals cover the connections open at the moment, this one included (a one-shot
   * {@code sluice cli info} has sent one byte); the last-minute figures cover every connection.
   */
  static Future<Result> info(ThrottrClient client, List<String> args) {
    return client.info().map(info -> {
      InfoSnapshot figures = info.figures();
      JsonObject json = new JsonObject().put("version", figures.version()).put("keys", figures.totalKeys())
          .put("counters", figures.totalCounters()).put("buffers", figures.totalBuffers())
          .put("connections", figures.totalConnections()).put("channels", figures.totalChannels())
          .put("subscriptions", figures.totalSubscriptions()).put("requests", info.totalRequests())
          .put("requests_per_minute", info.totalRequestsPerMinute()).put("read_bytes", figures.readBytes())
          .put("read_bytes_per_minute", figures.readBytesPerMinute()).put("write_bytes", figures.writeBytes())
          .put("write_bytes_per_minute", figures.writeBytesPerMinute());
      String text = "version: " + figures.version()
          + "\nkeys: " + figures.totalKeys() + " (" + count(figures.totalCounters(), "counter") + ", "
          + count(figures.totalBuffers(), "buffer") + ")"
          + "\nconnections: " + figures.totalConnections()
          + "\nchannels: " + figures.totalChannels() + " (" + count(figures.totalSubscriptions(), "subscription") + ")"
          + "\nrequests: " + info.totalRequests() + " since the start, " + info.totalRequestsPerMinute() + " last minute"
          + "\nbytes read: " + figures.readBytes() + " by the connections open now, "
          + figures.readBytesPerMinute() + " last minute"
          + "\nbytes written: " + figures.writeBytes() + " to the connections open now, "
          + figures.writeBytesPerMinute() + " last minute"
          + "\n(last minute: " + MINUTE_NOTE + ")";
      return Result.ok(text, json);
    });
  }

  static Future<Result> connections(ThrottrClient client, List<String> args) {
    return client.connections().map(connections -> {
      StringBuilder text = new StringBuilder();
      JsonArray items = new JsonArray();
      for (ConnectionItem connection : connections) {
        String id = HexFormat.of().formatHex(connection.id());
        text.append(id).append("  ").append(connection.ip()).append(':').append(connection.port())
            .append("  read ").append(connection.readBytes()).append(" B, written ").append(connection.writeBytes()).append(" B\n");
        items.add(new JsonObject().put("id", id).put("ip", connection.ip()).put("port", connection.port())
            .put("read_bytes", connection.readBytes()).put("write_bytes", connection.writeBytes()));
      }
      text.append("(").append(count(connections.size(), "connection")).append(")");
      return Result.ok(text.toString(), new JsonObject().put("connections", items));
    });
  }

  /** {@code 1 key}, {@code 3 keys}. */
  static String count(long n, String noun) {
    return count(n, noun, noun + "s");
  }

  static String count(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
