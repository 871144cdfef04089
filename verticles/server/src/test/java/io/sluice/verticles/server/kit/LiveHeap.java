package io.sluice.verticles.server.kit;

import java.lang.management.ManagementFactory;

/** The heap still reachable in this JVM, where the server under test runs: what a flood left held. */
public final class LiveHeap {

  private LiveHeap() {
  }

  /** Bytes used after full collections (System.gc() runs one; three let finalised buffers go too). */
  public static long bytes() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
