package io.sluice.verticles.benchmarks.load;

import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Whether a client that arrives during an attack is served, on each front: a Throttr WHOAMI, an
 * HTTP {@code GET /health} and a UDP {@code ping}, each on a connection (or socket) of its own.
 */
final class FreshClients {

  private FreshClients() {
  }

  /** "throttr yes, http yes, udp yes", or "no (why)" for the fronts that were not served. */
  static String check(AttackTarget target) {
    return "throttr " + answer(() -> throttr(target)) + ", http " + answer(() -> http(target))
        + ", udp " + answer(() -> udp(target));
  }

  /** True when every front served a fresh client. */
  static boolean allServed(String check) {
    return !check.contains(" no");
  }

  private interface Probe {
    boolean served() throws Exception;
  }

  private static String answer(Probe probe) {
    try {
      return probe.served() ? "yes" : "no (a wrong answer)";
    } catch (Exception e) {
      return "no (" + e + ")";
    }
  }

  private static boolean throttr(AttackTarget target) throws Exception {
    try (var socket = target.throttr()) {
      return ThrottrWhoami.served(socket);
    }
  }

  private static boolean http(AttackTarget target) throws Exception {
    try (var socket = target.http()) {
      socket.getOutputStream().write(("GET /health HTTP/1.1\r\nHost: " + target.host() + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return statusLine(socket.getInputStream()).startsWith("HTTP/1.1 200");
    }
  }

  private static boolean udp(AttackTarget target) throws Exception {
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.setSoTimeout(AttackTarget.READ_TIMEOUT_MILLIS);
      socket.connect(new InetSocketAddress(target.host(), target.udpPort()));
      byte[] ping = "7 ping".getBytes(StandardCharsets.US_ASCII);
      socket.send(new DatagramPacket(ping, ping.length));
      DatagramPacket reply = new DatagramPacket(new byte[64], 64);
      socket.receive(reply);
      return new String(reply.getData(), 0, reply.getLength(), StandardCharsets.US_ASCII).equals("7 pong");
    }
  }

  /** The next line of an HTTP head (the status line first), without its line end. */
  static String statusLine(InputStream in) throws java.io.IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
      line.append((char) c);
    }
    return line.toString().trim();
  }
}
