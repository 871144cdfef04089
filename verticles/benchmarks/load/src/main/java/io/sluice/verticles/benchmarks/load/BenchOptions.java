package io.sluice.verticles.benchmarks.load;

import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one bench run does, from {@code java -jar sluice.jar bench [--name value]…}.
 *
 * @param mix request kinds with weights, e.g. {update=1} or {query=3, update=1}
 */
record BenchOptions(
    String host,
    int port,
    int connections,
    int pipeline,
    int keys,
    Map<Operation, Integer> mix,
    Duration duration,
    Duration warmup,
    ValueSize valueSize,
    int valueBytes,
    long ttlSeconds,
    String tlsCa,
    int httpPort,
    boolean routeByOwner,
    String authTokenFile) {

  static final String HELP = String.join("\n",
      "Usage: java -jar sluice.jar bench [options]",
      "Drives a Throttr server over real TCP connections and reports throughput and latency; every reply is validated.",
      "  --host HOST          server address (127.0.0.1)",
      "  --port PORT          Throttr TCP port (9000)",
      "  --connections N      TCP connections (4)",
      "  --pipeline N         requests in flight per connection (64)",
      "  --keys N             distinct keys, inserted before the run (10000)",
      "  --mix SPEC           request mix: insert|query|update|set|get, weighted e.g. query=3,update=1 (update)",
      "                       insert creates a new key per request; update decreases a quota by 1",
      "  --duration SECONDS   measured time (10)",
      "  --warmup SECONDS     unmeasured time before it (2)",
      "  --value-size SIZE    uint8|uint16|uint32|uint64, as the server (uint16)",
      "  --value-bytes N      SET value length (16)",
      "  --ttl SECONDS        TTL of every key written, in seconds (3600); short TTLs measure memory after expiry",
      "  --tls-ca FILE        connect over TLS, trusting the server's certificate if this CA (PEM) signed it",
      "  --route-by-owner     a cluster: fetch its partition table from --host:--http-port, open --connections",
      "                       to every owner and send each key to its owner's Throttr port (docs/cluster.md)",
      "  --http-port PORT     HTTP port of the node giving the table, with --route-by-owner (8080)",
      "  --auth-token-file FILE  the node's HTTP token (its --auth-token-file), sent as a bearer token when",
      "                       --route-by-owner asks for the table",
      "Fan-out of one publisher to many WebSocket subscribers: java -jar sluice.jar bench fanout --help",
      "The UDP text protocol (over_limit): java -jar sluice.jar bench udp --help",
      "The attacks of docs/security.md, then whether fresh clients are served: java -jar sluice.jar bench attack --help");

  enum Operation { INSERT, QUERY, UPDATE, SET, GET }

  static BenchOptions parse(List<String> args) {
    Map<String, String> values = Arguments.parse(args, List.of("host", "port", "connections", "pipeline", "keys",
        "mix", "duration", "warmup", "value-size", "value-bytes", "ttl", "tls-ca", "http-port", "auth-token-file"), List.of("route-by-owner"));
    if (values == null) {
      return null;
    }
    return new BenchOptions(
        values.getOrDefault("host", "127.0.0.1"),
        Arguments.positive(values, "port", 9000),
        Arguments.positive(values, "connections", 4),
        Arguments.positive(values, "pipeline", 64),
        Arguments.positive(values, "keys", 10_000),
        mix(values.getOrDefault("mix", "update")),
        Duration.ofSeconds(Arguments.positive(values, "duration", 10)),
        Duration.ofSeconds(Arguments.nonNegative(values, "warmup", 2)),
        ValueSize.parse(values.getOrDefault("value-size", "uint16")),
        Arguments.nonNegative(values, "value-bytes", 16),
        Arguments.positive(values, "ttl", 3600),
        values.get("tls-ca"),
        Arguments.positive(values, "http-port", 8080),
        values.containsKey("route-by-owner"),
        values.get("auth-token-file"));
  }

  private static Map<Operation, Integer> mix(String spec) {
    Map<Operation, Integer> mix = new LinkedHashMap<>();
    for (String part : spec.split(",")) {
      String[] nameAndWeight = part.trim().split("=");
      Operation operation;
      try {
        operation = Operation.valueOf(nameAndWeight[0].trim().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--mix: unknown request kind '" + nameAndWeight[0] + "'");
      }
      int weight = nameAndWeight.length > 1 ? Integer.parseInt(nameAndWeight[1].trim()) : 1;
      if (weight < 1) {
        throw new IllegalArgumentException("--mix: weights are positive");
      }
      mix.put(operation, weight);
    }
    return mix;
  }
}
