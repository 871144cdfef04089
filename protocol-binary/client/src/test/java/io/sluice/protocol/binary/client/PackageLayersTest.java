package io.sluice.protocol.binary.client;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}). The client api and its impl: one unit (the api names its impl's factory).
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.protocol.binary.client")
        .layer("", "impl")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
