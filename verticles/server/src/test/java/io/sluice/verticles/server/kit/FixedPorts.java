package io.sluice.verticles.server.kit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for listeners that cannot take 0: a cluster member tells the others its port, and a node
 * restarted on the same port must find it again. They are chosen below the kernel's ephemeral range:
 * a port inside it that is free now can be taken, before the listener binds or between a stop and a
 * restart, by any outgoing connection of the machine (a cluster's own member connections among them),
 * which is how ClusterPersistenceProcessTest once failed to restart a node. Below it, only a listener
 * that asked for that very port can take it.
 */
public final class FixedPorts {

  private static final int LOWEST = 10_000;

  private FixedPorts() {
  }

  /** A TCP port below the ephemeral range that could be bound on loopback a moment ago. */
  public static int free() {
    int below = ephemeralStart();
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
      if (bindable(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port between " + LOWEST + " and " + below);
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  /** The first port of Linux's ephemeral range (32768 unless configured otherwise). */
  private static int ephemeralStart() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
      int start = Integer.parseInt(range.split("\\s+")[0]);
      return start > LOWEST + 1_000 ? start : 32_768;
    } catch (IOException | RuntimeException notLinux) {
      return 32_768;
    }
  }
}
