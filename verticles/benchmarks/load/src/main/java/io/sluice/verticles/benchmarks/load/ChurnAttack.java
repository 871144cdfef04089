package io.sluice.verticles.benchmarks.load;

import java.net.Socket;

/** Throttr connections opened, served one WHOAMI and closed, one after the other. */
final class ChurnAttack implements Attack {

  private final int count;

  ChurnAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    long started = System.nanoTime();
    int served = 0;
    for (int i = 0; i < count; i++) {
      try (Socket socket = target.throttr()) {
        served += ThrottrWhoami.served(socket) ? 1 : 0;
      }
    }
    return String.format("%d connect/WHOAMI/close rounds, %d served, in %.1f s", count, served,
        (System.nanoTime() - started) / 1e9);
  }
}
