package io.sluice.gateway.config;

import java.net.InetSocketAddress;

/** The value types of the xDS config source: the server's address, and the node id Sluice names itself by. */
final class XdsValueTypes {

  private static final int MAX_NODE_ID_LENGTH = 256;

  private XdsValueTypes() {
  }

  /**
   * {@code HOST:PORT} (an IPv6 literal in brackets), as envoyproxy/ratelimit's
   * CONFIG_GRPC_XDS_SERVER_URL; not resolved here: the name is resolved at each connection.
   */
  static ValueType<InetSocketAddress> serverAddress() {
    return new ValueType<>("HOST:PORT", XdsValueTypes::parseServerAddress, XdsValueTypes::formatServerAddress);
  }

  private static InetSocketAddress parseServerAddress(String text) {
    String address = text.trim();
    int colon = address.lastIndexOf(':');
    boolean bracketed = address.startsWith("[");
    if (colon <= 0 || !bracketed && address.indexOf(':') != colon || bracketed && !address.substring(0, colon).endsWith("]")) {
      throw new IllegalArgumentException("expected HOST:PORT (an IPv6 address in brackets: [::1]:18000)");
    }
    String host = ValueType.host().parse(address.substring(0, colon));
    int port = ValueType.integer(1, 65535).parse(address.substring(colon + 1));
    return InetSocketAddress.createUnresolved(host, port);
  }

  private static String formatServerAddress(InetSocketAddress address) {
    String host = address.getHostString();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
  }

  /** The xDS node id: visible ASCII without spaces, as management servers key snapshots by it. */
  static ValueType<String> nodeId() {
    return new ValueType<>("1 to " + MAX_NODE_ID_LENGTH + " visible ASCII characters", text -> {
      if (!text.matches("[\\x21-\\x7e]{1," + MAX_NODE_ID_LENGTH + "}")) {
        throw new IllegalArgumentException("expected 1 to " + MAX_NODE_ID_LENGTH + " visible ASCII characters, no spaces");
      }
      return text;
    }, text -> text);
  }
}
