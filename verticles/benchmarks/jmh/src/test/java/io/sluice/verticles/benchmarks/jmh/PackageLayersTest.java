package io.sluice.verticles.benchmarks.jmh;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}). The benchmarks, then what JMH generates from them.
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.verticles.benchmarks.jmh")
        .layer("")
        .layer("jmh_generated")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
