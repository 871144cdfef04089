package io.sluice.gateway;

import io.sluice.gateway.config.Option;
import io.sluice.gateway.config.Options;
import io.sluice.gateway.config.SluiceConfig;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

/**
 * The ports of a node's listeners, tried before it joins a cluster. A node that joined and only then
 * failed to bind a listener had already taken partitions (keys migrated to it, and back again as it
 * died); trying each port first, the way its listener will bind it (SO_REUSEADDR on TCP, not on UDP,
 * as Vert.x does by default), stops such a node before it is a member, with one error that names the port and its option.
 *
 * <p>A port another process takes between this check and the listener's bind still fails the start,
 * after the join: the node then leaves the cluster as it stops.
 */
final class ListenerPorts {

  /** One listener: its option, its address, and whether it is UDP. Port 0 (any free one) is not tried. */
  record Listener(Option<Integer> option, String host, int port, boolean udp) {

    void tryBind() throws IOException {
      InetSocketAddress address = new InetSocketAddress(host, port);
      try {
        if (udp) {
          try (DatagramSocket socket = new DatagramSocket(null)) {
            socket.bind(address);
          }
        } else {
          try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
          }
        }
      } catch (IOException e) {
        throw new IOException((udp ? "UDP" : "TCP") + " port " + port + " on " + host + " (" + option.flag()
            + ") cannot be bound: " + e.getMessage(), e);
      }
    }
  }

  private ListenerPorts() {
  }

  static List<Listener> of(SluiceConfig config) {
    return List.of(
        new Listener(Options.TCP_PORT, config.tcpBind(), config.tcpPort(), false),
        new Listener(Options.UDP_PORT, config.udpBind(), config.udpPort(), true),
        new Listener(Options.HTTP_PORT, config.httpBind(), config.httpPort(), false),
        new Listener(Options.GRPC_PORT, config.bind(), config.grpcPort(), false));
  }

  /** @throws IOException naming the first port that cannot be bound */
  static void checkFree(SluiceConfig config) throws IOException {
    for (Listener listener : of(config)) {
      if (listener.port() != 0) {
        listener.tryBind();
      }
    }
  }
}
