package io.sluice.gateway;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}). Tracing, the options and the command line client, independent of each other; the launcher over them.
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.gateway")
        .layer("opentelemetry", "config", "cli")
        .layer("")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
