package io.sluice.verticles.benchmarks.load;

import io.sluice.protocol.binary.codec.ValueSize;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * {@code java -jar sluice.jar bench attack NAME}: one of the attacks of docs/security.md ("Resource
 * bounds under attack") against a running server, then whether fresh clients are served while it
 * holds. With {@code --hold yes} it keeps what it holds (connections) until its standard input
 * ends, so that a script can read the server's memory meanwhile (verticles/benchmarks/scripts/attacks.sh).
 */
final class AttackBench {

  private record Kind(int defaultCount, IntFunction<Attack> create) {
  }

  private static final Map<String, Kind> ATTACKS = Map.of(
      "subscribe", new Kind(100_000, SubscribeAttack::new),
      "udp-keys", new Kind(1_000_000, UdpKeysAttack::new),
      "pipeline", new Kind(200_000, PipelineAttack::new),
      "connections", new Kind(5_000, ConnectionsAttack::new),
      "churn", new Kind(10_000, ChurnAttack::new),
      "ws-frame", new Kind(10, WebSocketFrameAttack::new),
      "http-headers", new Kind(100, HeaderAttack::new));

  static final String HELP = String.join("\n",
      "Usage: java -jar sluice.jar bench attack NAME [options]",
      "Attacks a running server, then checks that fresh Throttr, HTTP and UDP clients are served; exits 1 if one is not.",
      "  NAME                 subscribe (100000 SUBSCRIBEs to distinct channels on one connection),",
      "                       udp-keys (1000000 distinct UDP keys; run the server with the MusicBrainz rules),",
      "                       pipeline (200000 pipelined GETs from a client that does not read),",
      "                       connections (5000 connections open at once), churn (10000 connect/close rounds),",
      "                       ws-frame (10 WebSocket frames of 10 MB), http-headers (100 requests with 100 KB of headers)",
      "  --count N            how many (the number above)",
      "  --host HOST          server address (127.0.0.1)",
      "  --tcp-port PORT      Throttr port (9000)",
      "  --http-port PORT     HTTP port (8080)",
      "  --udp-port PORT      UDP port (9001)",
      "  --value-size SIZE    uint8|uint16|uint32|uint64, as the server (uint16)",
      "  --hold yes|no        keep what the attack holds until standard input ends (no)");

  private AttackBench() {
  }

  static int run(List<String> args) throws Exception {
    if (args.isEmpty() || args.get(0).startsWith("--")) {
      if (args.contains("--help")) {
        System.out.println(HELP);
        return 0;
      }
      throw new IllegalArgumentException("name an attack");
    }
    Kind kind = ATTACKS.get(args.get(0));
    if (kind == null) {
      throw new IllegalArgumentException("unknown attack '" + args.get(0) + "'");
    }
    Map<String, String> options = Arguments.parse(args.subList(1, args.size()),
        List.of("count", "host", "tcp-port", "http-port", "udp-port", "value-size", "hold"));
    if (options == null) {
      System.out.println(HELP);
      return 0;
    }
    AttackTarget target = new AttackTarget(options.getOrDefault("host", "127.0.0.1"),
        Arguments.positive(options, "tcp-port", 9000), Arguments.positive(options, "http-port", 8080),
        Arguments.positive(options, "udp-port", 9001), ValueSize.parse(options.getOrDefault("value-size", "uint16")));
    boolean hold = switch (options.getOrDefault("hold", "no")) {
      case "yes" -> true;
      case "no" -> false;
      default -> throw new IllegalArgumentException("--hold is yes or no");
    };
    try (Attack attack = kind.create().apply(Arguments.positive(options, "count", kind.defaultCount()))) {
      System.out.println("attack: " + attack.launch(target));
      String during = FreshClients.check(target);
      System.out.println("fresh clients during the attack: " + during);
      if (hold) {
        System.out.println("holding until standard input ends");
        System.out.flush();
        drain(System.in);
      }
      String released = attack.release();
      if (!released.isEmpty()) {
        System.out.println("released: " + released);
      }
      String after = FreshClients.check(target);
      System.out.println("fresh clients after it: " + after);
      return FreshClients.allServed(during) && FreshClients.allServed(after) ? 0 : 1;
    }
  }

  private static void drain(InputStream in) throws java.io.IOException {
    byte[] ignored = new byte[256];
    while (in.read(ignored) != -1) {
      // the script's signal is the end of the input
    }
  }
}
