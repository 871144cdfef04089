package io.sluice.protocol.binary.codec;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}). The codec, then the response types built on it.
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.protocol.binary.codec")
        .layer("")
        .layer("response")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
