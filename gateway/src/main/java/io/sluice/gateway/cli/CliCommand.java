package io.sluice.gateway.cli;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The Throttr requests {@code sluice cli} sends, one row each: name, arguments, help, and how the
 * reply is shown. {@code subscribe} streams pushes and is run by {@link Cli} itself.
 */
enum CliCommand {

  INSERT("KEY QUOTA TTL", "create a counter with QUOTA that expires after TTL (seconds, or 500ms, 5m, 2h…)", 3, (client, args) -> {
    Ttl ttl = Ttl.parse(args.get(2));
    return client.insert(args.get(0), number(args.get(1), "QUOTA"), ttl.unit(), ttl.amount())
        .map(created -> created ? Result.ok("OK", keyJson(args)) : Result.failed("not inserted: the key exists", keyJson(args)));
  }),
  QUERY("KEY", "the counter's quota and TTL", 1, (client, args) -> client.query(args.get(0)).map(found -> found == null
      ? Result.failed("no such counter", keyJson(args))
      : Result.ok("quota " + found.quota() + ", ttl " + Ttl.format(found.ttl(), found.ttlUnit()),
          keyJson(args).put("quota", found.quota()).put("ttl", found.ttl()).put("ttl_unit", unitName(found.ttlUnit()))))),
  UPDATE("KEY quota|ttl patch|increase|decrease VALUE", "change a counter's quota or TTL", 4, (client, args) -> {
    UpdateAttribute attribute = choice(UpdateAttribute.class, args.get(1), "quota|ttl");
    UpdateChange change = choice(UpdateChange.class, args.get(2), "patch|increase|decrease");
    return client.update(args.get(0), attribute, change, number(args.get(3), "VALUE"))
        .map(done -> done ? Result.ok("OK", keyJson(args))
            : Result.failed("not updated: no such key, or the change would go below zero", keyJson(args)));
  }),
  PURGE("KEY", "remove a key", 1, (client, args) -> client.purge(args.get(0))
      .map(done -> done ? Result.ok("OK", keyJson(args)) : Result.failed("no such key", keyJson(args)))),
  SET("KEY VALUE TTL", "store VALUE (text) under KEY for TTL", 3, (client, args) -> {
    Ttl ttl = Ttl.parse(args.get(2));
    return client.set(args.get(0), args.get(1).getBytes(StandardCharsets.UTF_8), ttl.unit(), ttl.amount())
        .map(done -> done ? Result.ok("OK", keyJson(args)) : Result.failed("not set: the key holds a counter, or the value is too long", keyJson(args)));
  }),
  GET("KEY", "the value stored under KEY and its TTL", 1, (client, args) -> client.get(args.get(0)).map(found -> found == null
      ? Result.failed("no such value", keyJson(args))
      : Result.ok(new String(found.value(), StandardCharsets.UTF_8) + "  (ttl " + Ttl.format(found.ttl(), found.ttlUnit()) + ")",
          keyJson(args).put("value", new String(found.value(), StandardCharsets.UTF_8))
              .put("value_base64", Base64.getEncoder().encodeToString(found.value()))
              .put("ttl", found.ttl()).put("ttl_unit", unitName(found.ttlUnit()))))),
  LIST("", "every key: type and bytes used", 0, (client, args) -> client.list().map(keys -> {
    StringBuilder text = new StringBuilder();
    JsonArray items = new JsonArray();
    for (Listing.KeyItem key : keys) {
      String type = key.keyType() == Listing.KeyItem.TYPE_COUNTER ? "counter" : "buffer";
      text.append(utf8(key.key())).append("  ").append(type).append("  ").append(key.bytesUsed()).append(" bytes\n");
      items.add(new JsonObject().put("key", utf8(key.key())).put("type", type).put("bytes", key.bytesUsed()));
    }
    text.append("(").append(keys.size()).append(keys.size() == 1 ? " key)" : " keys)");
    return Result.ok(text.toString(), new JsonObject().put("keys", items));
  })),
  STATS("", "every key's reads and writes, per minute and in total", 0, (client, args) -> client.stats().map(keys -> {
    StringBuilder text = new StringBuilder();
    JsonArray items = new JsonArray();
    for (Listing.KeyStatsItem key : keys) {
      text.append(utf8(key.key())).append("  reads ").append(key.readsPerMinute()).append("/min ").append(key.totalReads())
          .append(" total, writes ").append(key.writesPerMinute()).append("/min ").append(key.totalWrites()).append(" total\n");
      items.add(new JsonObject().put("key", utf8(key.key())).put("reads_per_minute", key.readsPerMinute())
          .put("writes_per_minute", key.writesPerMinute()).put("total_reads", key.totalReads())
          .put("total_writes", key.totalWrites()));
    }
    text.append("(").append(keys.size()).append(keys.size() == 1 ? " key)" : " keys)");
    return Result.ok(text.toString(), new JsonObject().put("keys", items));
  })),
  INFO("", "the instance: version, keys, connections, channels, traffic", 0, (client, args) -> client.info().map(info -> {
    InfoSnapshot figures = info.figures();
    JsonObject json = new JsonObject().put("version", figures.version()).put("keys", figures.totalKeys())
        .put("counters", figures.totalCounters()).put("buffers", figures.totalBuffers())
        .put("connections", figures.totalConnections()).put("channels", figures.totalChannels())
        .put("subscriptions", figures.totalSubscriptions()).put("requests", info.totalRequests())
        .put("requests_per_minute", info.totalRequestsPerMinute()).put("read_bytes", figures.readBytes())
        .put("write_bytes", figures.writeBytes());
    StringBuilder text = new StringBuilder();
    json.forEach(field -> text.append(text.length() == 0 ? "" : "\n").append(field.getKey().replace('_', ' '))
        .append(": ").append(field.getValue()));
    return Result.ok(text.toString(), json);
  })),
  CONNECTIONS("", "the clients connected: ID, address, traffic", 0, (client, args) -> client.connections().map(connections -> {
    StringBuilder text = new StringBuilder();
    JsonArray items = new JsonArray();
    for (ConnectionItem connection : connections) {
      String id = HexFormat.of().formatHex(connection.id());
      text.append(id).append("  ").append(connection.ip()).append(':').append(connection.port())
          .append("  read ").append(connection.readBytes()).append(" B, written ").append(connection.writeBytes()).append(" B\n");
      items.add(new JsonObject().put("id", id).put("ip", connection.ip()).put("port", connection.port())
          .put("read_bytes", connection.readBytes()).put("write_bytes", connection.writeBytes()));
    }
    text.append("(").append(connections.size()).append(connections.size() == 1 ? " connection)" : " connections)");
    return Result.ok(text.toString(), new JsonObject().put("connections", items));
  })),
  SUBSCRIBE("CHANNEL [COUNT]", "print the channel's messages as they come (COUNT: stop after that many)", 1, null),
  PUBLISH("CHANNEL MESSAGE", "send MESSAGE (text) to the channel's subscribers", 2, (client, args) -> client.publish(args.get(0), args.get(1))
      .map(delivered -> delivered ? Result.ok("OK", new JsonObject().put("channel", args.get(0)))
          : Result.failed("nobody is subscribed to " + args.get(0), new JsonObject().put("channel", args.get(0)))));

  private final String arguments;
  private final String description;
  private final int requiredArguments;
  private final BiFunction<ThrottrClient, List<String>, Future<Result>> request;

  CliCommand(String arguments, String description, int requiredArguments,
             BiFunction<ThrottrClient, List<String>, Future<Result>> request) {
    this.arguments = arguments;
    this.description = description;
    this.requiredArguments = requiredArguments;
    this.request = request;
  }

  String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  String usage() {
    return (word() + " " + arguments).trim();
  }

  String description() {
    return description;
  }

  static Optional<CliCommand> named(String word) {
    for (CliCommand command : values()) {
      if (command.word().equals(word.toLowerCase(Locale.ROOT))) {
        return Optional.of(command);
      }
    }
    return Optional.empty();
  }

  /** Every command word, for help and completion. */
  public static List<String> words() {
    return java.util.Arrays.stream(values()).map(CliCommand::word).toList();
  }

  /** @throws IllegalArgumentException for a wrong number or shape of arguments */
  Future<Result> run(ThrottrClient client, List<String> args) {
    int optional = arguments.contains("[") ? 1 : 0;
    if (args.size() < requiredArguments || args.size() > requiredArguments + optional) {
      throw new IllegalArgumentException("usage: " + usage());
    }
    return request.apply(client, args);
  }

  static long number(String text, String what) {
    try {
      long value = Long.parseLong(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException notANumber) {
      // the message below
    }
    throw new IllegalArgumentException(what + " '" + text + "': expected a whole number, 0 or more");
  }

  private static <E extends Enum<E>> E choice(Class<E> type, String text, String allowed) {
    try {
      return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException unknown) {
      throw new IllegalArgumentException("'" + text + "': expected " + allowed);
    }
  }

  private static JsonObject keyJson(List<String> args) {
    return new JsonObject().put("key", args.get(0));
  }

  private static String unitName(TtlUnit unit) {
    return unit == null ? "unknown" : unit.name().toLowerCase(Locale.ROOT);
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
