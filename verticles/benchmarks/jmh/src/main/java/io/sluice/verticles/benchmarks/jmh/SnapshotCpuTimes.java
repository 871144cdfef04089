package io.sluice.verticles.benchmarks.jmh;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.persist.SnapshotRun;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link SnapshotBenchmark}'s work timed in this thread's CPU time, which a machine shared with
 * other busy processes does not inflate as it does wall time: every slice of whole snapshot walks
 * of 1,000,000 keys (the worst and the mean; what a slice costs its shard when it has the CPU),
 * and loading the shard back. Run:
 * {@code java -cp verticles/benchmarks/jmh/target/benchmarks.jar io.sluice.verticles.benchmarks.jmh.SnapshotCpuTimes}
 */
public final class SnapshotCpuTimes {

  private SnapshotCpuTimes() {
  }

  public static void main(String[] args) throws Exception {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    SnapshotBenchmark shard = new SnapshotBenchmark();
    shard.fill();
    try {
      for (int walk = 1; walk <= 5; walk++) {
        long worst = 0;
        long total = 0;
        int slices = 0;
        long bytes = 0;
        do {
          long start = cpu.getCurrentThreadCpuTime();
          List<ByteBuf> images = shard.slice();
          long took = cpu.getCurrentThreadCpuTime() - start;
          worst = Math.max(worst, took);
          total += took;
          slices++;
          bytes += images.stream().mapToLong(ByteBuf::readableBytes).sum();
        } while (!shard.walkComplete());
        System.out.printf("walk %d: %d slices of %d, %d bytes, CPU: worst slice %.2f ms, mean %.2f ms, all %.0f ms%n",
            walk, slices, SnapshotRun.WORK_PER_SLICE, bytes, worst / 1e6, total / 1e6 / slices, total / 1e6);
      }
      for (int load = 1; load <= 3; load++) {
        long start = cpu.getCurrentThreadCpuTime();
        int keys = shard.load().size();
        System.out.printf("load %d: %d keys in %.0f ms of CPU%n", load, keys, (cpu.getCurrentThreadCpuTime() - start) / 1e6);
      }
    } finally {
      shard.clean();
    }
  }
}
