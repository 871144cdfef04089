package io.sluice.verticles.engine.routing;

import io.sluice.protocol.binary.codec.RequestType;

/**
 * Per Throttr request type, where it runs and who answers it: the one table of the protocol's
 * routing. The shard side of each type is handled in {@code ThrottrShard}, the connection side and
 * the merging of every shard's part in {@code ThrottrSession}.
 */
public enum RequestRoute {

  /** Runs on the route (shard, or a cluster's partition) that owns its key, which writes the reply. */
  OWNER,
  /** Every route (shard, or a cluster's partition) contributes its part; the session merges them into one reply. */
  EVERY_SHARD,
  /**
   * The connection answers it itself: who it is, the instance's connections and channels (a
   * CONNECTION for an ID of another cluster node's connection asks the other nodes).
   */
  CONNECTION,
  /** Carries another request, which is routed by its own type (EVENT). */
  INNER;

  public static RequestRoute of(RequestType type) {
    return switch (type) {
      case INSERT, QUERY, UPDATE, PURGE, SET, GET, STAT -> OWNER;
      case LIST, STATS, INFO -> EVERY_SHARD;
      case SUBSCRIBE, UNSUBSCRIBE, PUBLISH, CONNECTIONS, CONNECTION, CHANNELS, CHANNEL, WHOAMI -> CONNECTION;
      case EVENT -> INNER;
    };
  }
}
