package io.sluice.verticles.server;

import io.sluice.testkit.layers.Layers;
import org.junit.jupiter.api.Test;

/**
 * The server's packages, bottom layer first, as package-info.java of this package describes them:
 * a package uses only its own layer and those below, and no packages form a cycle (see
 * {@link Layers}).
 */
class PackageLayersTest {

  @Test
  void packagesKeepToTheirLayers() {
    Layers.under("io.sluice.verticles.server")
        // The event bus's helpers: a local codec, asking every member of the cluster.
        .layer("bus")
        // Parts that use no other package of the server but bus.
        .layer("tracing", "metrics", "reload", "tls", "pubsub", "persistence", "wsauth")
        // The settings the listeners and the dashboard share; the xDS config client (over tls).
        .layer("settings", "xds")
        // The way to the storage shards.
        .layer("dispatch")
        // A bound port and its defences: guards, connection gate and limits, TLS reloads.
        .layer("listener")
        // A client connection of the Throttr fronts.
        .layer("front")
        // The HTTP port and what every endpoint does.
        .layer("http")
        // What the HTTP port serves, and the cluster and UDP engines.
        .layer("check", "health", "cluster", "udp")
        // The Throttr, WebSocket and gRPC fronts.
        .layer("tcp", "websocket", "grpc")
        // The dashboard, over every other feature.
        .layer("dashboard")
        // SluiceServer, which starts them all.
        .layer("")
        .assertHeldByModuleOf(PackageLayersTest.class);
  }
}
