package io.sluice.protocol.udp.wire;

/**
 * The body of one request, after the optional request id. Keys and the {@code check_limit}
 * argument are byte strings: each {@code char} is one byte of the datagram (ISO-8859-1), so they
 * are opaque and round-trip to the exact bytes received.
 */
public sealed interface UdpCommand {

  /** The command's word on the wire, e.g. {@code over_limit}. */
  default String word() {
    if (this instanceof OverLimit) {
      return "over_limit";
    }
    if (this instanceof CheckLimit) {
      return "check_limit";
    }
    if (this instanceof GetStats) {
      return "get_stats";
    }
    return this instanceof GetSize ? "get_size" : "ping";
  }

  /** {@code over_limit <key>}: make one use of the key and say whether it is over its limit. */
  record OverLimit(String key) implements UdpCommand {
  }

  /** {@code check_limit <json>}: {@link OverLimit} on the ua, ip and global keys derived from a JSON object. */
  record CheckLimit(String json) implements UdpCommand {
  }

  /** {@code get_stats <key>}: the statistics kept for that (already munged) key. */
  record GetStats(String key) implements UdpCommand {
  }

  /** {@code get_size}: how many keys have rate state. */
  record GetSize() implements UdpCommand {
  }

  /** {@code ping}: answered {@code pong}. */
  record Ping() implements UdpCommand {
  }
}
