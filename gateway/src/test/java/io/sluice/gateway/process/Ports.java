package io.sluice.gateway.process;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports for what cannot take 0 (a cluster member tells the others its port, so it needs a fixed one). */
public final class Ports {

  private Ports() {
  }

  /** A TCP port that was free a moment ago on this machine. */
  public static int free() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
