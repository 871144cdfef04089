package io.sluice.protocol.udp;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}). The rule model and the wire format, independent of
 * each other; the rules file format reads YAML into the model.
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.protocol.udp")
        .layer("rules", "wire")
        .layer("rulefile")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
