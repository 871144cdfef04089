package io.sluice.verticles.benchmarks.load;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;

/** One WHOAMI on an open Throttr connection: whether the server serves that connection. */
final class ThrottrWhoami {

  private static final int REQUEST = 0x18;
  /** Status, then the connection's 16-byte ID. */
  private static final int REPLY = 17;

  private ThrottrWhoami() {
  }

  static boolean served(Socket socket) {
    try {
      socket.getOutputStream().write(REQUEST);
      byte[] reply = new byte[REPLY];
      new DataInputStream(socket.getInputStream()).readFully(reply);
      return reply[0] == 1;
    } catch (IOException refused) {
      return false;
    }
  }
}
