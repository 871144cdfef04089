package io.sluice.gateway;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import java.lang.management.ManagementFactory;

/**
 * Sluice is a store: its resident memory should follow its live records, not the JVM's default
 * tendency to keep up to 70% of the heap free and committed. At start it sets HotSpot's manageable
 * heap-sizing flags so the heap shrinks back after a collection and an idle instance runs a
 * periodic concurrent cycle that returns memory. Flags the operator set on the command line win.
 */
final class HeapTuning {

  private static final System.Logger LOG = System.getLogger(HeapTuning.class.getName());

  private HeapTuning() {
  }

  static void apply() {
    try {
      HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      // Order matters: the minimum may never exceed the maximum at any moment.
      setUnlessOperatorChose(hotspot, "MinHeapFreeRatio", "5");
      setUnlessOperatorChose(hotspot, "MaxHeapFreeRatio", "10");
      // The same as conf/jvm.options (measured in docs/benchmarks.md): freed within a minute of an expiry.
      setUnlessOperatorChose(hotspot, "G1PeriodicGCInterval", "5000");
    } catch (RuntimeException | LinkageError e) {
      LOG.log(System.Logger.Level.DEBUG, "heap tuning not available on this JVM: " + e);
    }
  }

  private static void setUnlessOperatorChose(HotSpotDiagnosticMXBean hotspot, String flag, String value) {
    VMOption option = hotspot.getVMOption(flag);
    if (option.getOrigin() == VMOption.Origin.DEFAULT || option.getOrigin() == VMOption.Origin.ERGONOMIC) {
      hotspot.setVMOption(flag, value);
    }
  }
}
