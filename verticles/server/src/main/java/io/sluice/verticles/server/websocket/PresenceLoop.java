package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.PresenceRegistry;
import io.sluice.verticles.engine.instance.Instance;
import io.vertx.core.Vertx;

/**
 * What the WebSocket connections of one event loop share for presence: the node's registry, the
 * loop's join/leave fan-out and the cluster-wide query.
 */
record PresenceLoop(PresenceRegistry registry, PresenceEvents events, PresenceCensus census, Instance instance) {

  /** Call on the loop. */
  static PresenceLoop on(Vertx vertx, Instance instance) {
    return new PresenceLoop(instance.presence(), new PresenceEvents(vertx),
        PresenceCensus.on(vertx, instance.presence(), instance.clock()), instance);
  }
}
