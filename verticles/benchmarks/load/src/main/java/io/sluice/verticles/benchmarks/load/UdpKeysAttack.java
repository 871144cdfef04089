package io.sluice.verticles.benchmarks.load;

import java.net.InetSocketAddress;

/** Distinct UDP keys, each a new rate state and new statistics ({@link UdpKeyFlood}). */
final class UdpKeysAttack implements Attack {

  private final int count;

  UdpKeysAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    long started = System.nanoTime();
    long answered = UdpKeyFlood.send(new InetSocketAddress(target.host(), target.udpPort()), count);
    double seconds = (System.nanoTime() - started) / 1e9;
    return String.format("%d distinct UDP keys sent, %d answered, in %.1f s", count, answered, seconds);
  }
}
