package io.sluice.verticles.strategies;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}). The strategy api, the state its strategies keep, the strategies, and the policies made of them.
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.verticles.strategies")
        .layer("")
        .layer("encoding")
        .layer("algorithm")
        .layer("policy")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
