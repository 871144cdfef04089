package io.sluice.verticles.server.udp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One real UDP client socket on loopback, talking to the UDP front. Requests and replies are byte
 * strings (one char per byte, ISO-8859-1), as the protocol treats them. Blocking: use it from the
 * test thread (or a worker thread), never from an event loop. The receive timeout only bounds a
 * failing test; nothing waits on time to synchronise.
 */
public final class UdpTestClient implements AutoCloseable {

  /** Bound on one receive; a correct server answers within microseconds. */
  static final int RECEIVE_TIMEOUT_MILLIS = 10_000;

  /** Ids of the ping probes: unique across clients so a stray reply can never be mistaken for one. */
  private static final AtomicLong PROBES = new AtomicLong(900_000_000L);

  private final DatagramSocket socket;
  private final byte[] buffer = new byte[65_536];

  public UdpTestClient(int port) {
    try {
      socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      socket.setSoTimeout(RECEIVE_TIMEOUT_MILLIS);
      socket.setReceiveBufferSize(1 << 20);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void send(String datagram) {
    send(datagram.getBytes(StandardCharsets.ISO_8859_1));
  }

  void send(byte[] datagram) {
    try {
      socket.send(new DatagramPacket(datagram, datagram.length));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The next datagram received, as a byte string; fails the test if none comes within the bound. */
  String receive() {
    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
    try {
      socket.receive(packet);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no datagram within " + RECEIVE_TIMEOUT_MILLIS + " ms", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new String(packet.getData(), packet.getOffset(), packet.getLength(), StandardCharsets.ISO_8859_1);
  }

  /** Sends one request and returns the next datagram received (the reply, when requests are sequential). */
  public String request(String datagram) {
    send(datagram);
    return receive();
  }

  /**
   * Asserts that {@code datagram} gets no reply: sends it, then a {@code ping} with a fresh id from
   * the same socket, then a {@code get_size} with another (it goes round every shard, so a reply
   * wrongly computed in a shard for the first datagram would have come back before it); the next two
   * datagrams must be exactly their replies.
   */
  void assertNoReply(String datagram) {
    assertNoReply(datagram.getBytes(StandardCharsets.ISO_8859_1));
  }

  void assertNoReply(byte[] datagram) {
    String shown = new String(datagram, StandardCharsets.ISO_8859_1);
    send(datagram);
    long ping = PROBES.incrementAndGet();
    long size = PROBES.incrementAndGet();
    send(ping + " ping");
    send(size + " get_size");
    assertThat(receive()).as("the datagram after '%s' (which must get no reply)", shown).isEqualTo(ping + " pong");
    assertThat(receive()).as("the second datagram after '%s'", shown).startsWith(size + " size=");
  }

  /** The key count of {@code get_size}, checking the whole reply's form. */
  long size() {
    String reply = request("get_size");
    assertThat(reply).matches("size=\\d+ keys=\\d+");
    String[] fields = reply.split(" ");
    assertThat(fields[0].substring("size=".length())).isEqualTo(fields[1].substring("keys=".length()));
    return Long.parseLong(fields[1].substring("keys=".length()));
  }

  @Override
  public void close() {
    socket.close();
  }
}
