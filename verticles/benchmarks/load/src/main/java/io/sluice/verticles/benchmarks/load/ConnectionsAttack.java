package io.sluice.verticles.benchmarks.load;

import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/** Throttr connections opened and kept open, each answering a WHOAMI first: --max-connections bounds them. */
final class ConnectionsAttack implements Attack {

  private final int count;
  private final List<Socket> open = new ArrayList<>();

  ConnectionsAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    int served = 0;
    for (int i = 0; i < count; i++) {
      Socket socket = target.throttr();
      open.add(socket);
      served += ThrottrWhoami.served(socket) ? 1 : 0;
    }
    return count + " Throttr connections open at once, " + served + " of them served a WHOAMI";
  }

  @Override
  public String release() throws Exception {
    for (Socket socket : open) {
      socket.close();
    }
    open.clear();
    return "";
  }
}
