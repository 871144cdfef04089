package io.sluice.verticles.engine;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * This module's packages, bottom layer first: a package uses only its own layer and those below,
 * and no packages form a cycle (see {@link Layers}).
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.verticles.engine")
        // The one clock.
        .layer("time")
        // What stands on the clock alone: logs, storage, channels, the UDP rate, rule and statistics parts.
        .layer("log", "storage", "channel", "udprate.rate", "udprate.stats")
        // The storage shard, persistence, the instance, the UDP state.
        .layer("shard", "persist", "instance", "udprate.store")
        // The routes to the shards, browsing them, the UDP engine.
        .layer("routing", "browse", "udprate")
        // The Throttr session over all of them.
        .layer("session")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
