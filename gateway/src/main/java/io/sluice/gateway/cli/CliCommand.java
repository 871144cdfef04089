package io.sluice.gateway.cli;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The commands {@code sluice cli} runs, one row each: name, arguments, help, and the request with
 * how its reply is shown. Most speak Throttr; check, policies and reset use the HTTP port.
 * {@code subscribe} streams pushes and is run by {@link Cli} itself.
 */
enum CliCommand {

  INSERT("KEY QUOTA TTL", "create a counter with QUOTA that expires after TTL", 3, (servers, args) -> {
    long quota = fitting(number(args.get(1), "QUOTA"), "QUOTA", servers.valueSize());
    Ttl ttl = Ttl.parse(args.get(2)).onWire(servers.valueSize());
    return servers.throttr().compose(client -> client.insert(args.get(0), quota, ttl.unit(), ttl.amount()))
        .map(created -> created ? Result.ok("OK", keyJson(args)) : Result.failed("not inserted: the key exists", keyJson(args)));
  }),
  QUERY("KEY", "the counter's quota and remaining TTL", 1, throttr((client, args) -> client.query(args.get(0)).map(found -> found == null
      ? Result.failed("no such counter", keyJson(args))
      : Result.ok("quota " + found.quota() + ", ttl " + Ttl.format(found.ttl(), found.ttlUnit()),
          keyJson(args).put("quota", found.quota()).put("ttl", found.ttl()).put("ttl_unit", Ttl.name(found.ttlUnit())))))),
  UPDATE("KEY quota|ttl patch|increase|decrease VALUE", "change a counter's quota, or a key's TTL (VALUE a TTL)", 4,
      CliCommand::update),
  PURGE("KEY", "remove a key", 1, throttr((client, args) -> client.purge(args.get(0))
      .map(done -> done ? Result.ok("OK", keyJson(args)) : Result.failed("no such key", keyJson(args))))),
  SET("KEY VALUE TTL", "store VALUE (text) under KEY for TTL", 3, (servers, args) -> {
    Ttl ttl = Ttl.parse(args.get(2)).onWire(servers.valueSize());
    byte[] value = args.get(1).getBytes(StandardCharsets.UTF_8);
    fitting(value.length, "VALUE's length", servers.valueSize());
    return servers.throttr().compose(client -> client.set(args.get(0), value, ttl.unit(), ttl.amount()))
        .map(done -> done ? Result.ok("OK", keyJson(args)) : Result.failed("not set: the key holds a counter", keyJson(args)));
  }),
  GET("KEY", "the value stored under KEY and its remaining TTL", 1, throttr((client, args) -> client.get(args.get(0)).map(found -> found == null
      ? Result.failed("no such value", keyJson(args))
      : Result.ok(new String(found.value(), StandardCharsets.UTF_8) + "  (ttl " + Ttl.format(found.ttl(), found.ttlUnit()) + ")",
          keyJson(args).put("value", new String(found.value(), StandardCharsets.UTF_8))
              .put("value_base64", Base64.getEncoder().encodeToString(found.value()))
              .put("ttl", found.ttl()).put("ttl_unit", Ttl.name(found.ttlUnit())))))),
  LIST("", "every key: type and bytes used", 0, throttr(InstanceReplies::list)),
  STATS("", "every key's reads and writes: last whole minute, and in total", 0, throttr(InstanceReplies::stats)),
  INFO("", "the instance: version, keys, connections, channels, traffic", 0, throttr(InstanceReplies::info)),
  CONNECTIONS("", "the clients connected: ID, address, traffic", 0, throttr(InstanceReplies::connections)),
  SUBSCRIBE("CHANNEL [COUNT]", "print the channel's messages as they come (COUNT: stop after that many)", 1, null),
  PUBLISH("CHANNEL MESSAGE", "send MESSAGE (text) to the channel's subscribers", 2, throttr((client, args) -> client.publish(args.get(0), args.get(1))
      .map(delivered -> delivered ? Result.ok("OK", new JsonObject().put("channel", args.get(0)))
          : Result.failed("nobody is subscribed to " + args.get(0), new JsonObject().put("channel", args.get(0)))))),
  CHECK("POLICY KEY [COST]", "HTTP check API: consume COST (1) of KEY's limit; exit 1 when denied", 2, CheckApiCommands::check),
  RESET("POLICY KEY", "HTTP check API: forget KEY's state under POLICY, so it starts afresh", 2, CheckApiCommands::reset),
  POLICIES("", "HTTP API: the check API's policies and Envoy rate limit domains", 0, CheckApiCommands::policies);

  /** A command's request: its arguments already counted, the servers connected on first use. */
  interface Request extends BiFunction<Servers, List<String>, Future<Result>> {
  }

  private final String arguments;
  private final String description;
  private final int requiredArguments;
  private final Request request;

  CliCommand(String arguments, String description, int requiredArguments, Request request) {
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
    return Arrays.stream(values()).map(CliCommand::word).toList();
  }

  /** @throws IllegalArgumentException for a wrong number or shape of arguments */
  Future<Result> run(Servers servers, List<String> args) {
    int optional = arguments.contains("[") ? 1 : 0;
    if (args.size() < requiredArguments || args.size() > requiredArguments + optional) {
      throw new IllegalArgumentException("usage: " + usage());
    }
    return request.apply(servers, args);
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

  /** The wire would cut a larger value to N bytes without a word: refuse it instead. */
  private static long fitting(long value, String what, ValueSize size) {
    if (!size.fits(value)) {
      throw new IllegalArgumentException(what + " " + value + " does not fit --value-size "
          + size.name().toLowerCase(Locale.ROOT) + " (at most " + Long.toUnsignedString(size.max()) + ")");
    }
    return value;
  }

  /** A command that only needs the Throttr connection. */
  private static Request throttr(BiFunction<ThrottrClient, List<String>, Future<Result>> send) {
    return (servers, args) -> servers.throttr().compose(client -> send.apply(client, args));
  }

  /**
   * UPDATE carries no TTL unit: the server reads the value in the unit stored with the record. So a
   * TTL change first asks the record's unit (QUERY answers it for a buffer too), and sends the TTL
   * counted in it, refusing one that is no whole number of it.
   */
  private static Future<Result> update(Servers servers, List<String> args) {
    UpdateAttribute attribute = choice(UpdateAttribute.class, args.get(1), "quota|ttl");
    UpdateChange change = choice(UpdateChange.class, args.get(2), "patch|increase|decrease");
    if (attribute == UpdateAttribute.QUOTA) {
      long quota = fitting(number(args.get(3), "VALUE"), "VALUE", servers.valueSize());
      return servers.throttr().compose(client -> client.update(args.get(0), attribute, change, quota)).map(done -> done
          ? Result.ok("OK", keyJson(args))
          : Result.failed("not updated: no such counter, or the decrease would go below zero", keyJson(args)));
    }
    Ttl ttl = Ttl.parse(args.get(3));
    return servers.throttr().compose(client -> client.query(args.get(0)).compose(found -> {
      if (found == null) {
        return Future.succeededFuture(Result.failed("not updated: no such key", keyJson(args)));
      }
      TtlUnit recordUnit = found.ttlUnit() == null ? TtlUnit.SECONDS : found.ttlUnit();
      Ttl counted = ttl.in(recordUnit, servers.valueSize());
      return client.update(args.get(0), attribute, change, counted.amount()).map(done -> done
          ? Result.ok("OK", keyJson(args).put("ttl_change", counted.amount()).put("ttl_unit", Ttl.name(recordUnit)))
          : Result.failed("not updated: the key is gone", keyJson(args)));
    }));
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
}
