package io.sluice.verticles.server.kit;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * The most heap the old generation held while something ran, even briefly: a server that allocates
 * a length it read before checking it makes an array of that size at once, which goes straight to
 * the old generation and is gone again before any later measure of the live heap could see it.
 */
public final class HeapPeak {

  private final List<MemoryPoolMXBean> oldGeneration;
  private final long before;

  private HeapPeak(List<MemoryPoolMXBean> oldGeneration) {
    if (oldGeneration.isEmpty()) {
      throw new IllegalStateException("this JVM's collector has no old generation pool to watch");
    }
    this.oldGeneration = oldGeneration;
    oldGeneration.forEach(MemoryPoolMXBean::resetPeakUsage);
    this.before = oldGeneration.stream().mapToLong(pool -> pool.getUsage().getUsed()).sum();
  }

  /** Starts watching from now. */
  public static HeapPeak start() {
    return new HeapPeak(ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP && pool.getName().matches(".*(Old|Tenured).*"))
        .toList());
  }

  /** How much more than at the start the old generation held at its highest. */
  public long grownBytes() {
    return oldGeneration.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum() - before;
  }
}
