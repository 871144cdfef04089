package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.check.PublishLimits;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;

/** {@code --ws-publish-rate} on one event loop: the policy, and this loop's way to the shards. */
record PublishRate(PublishLimits limits, ShardQueries shards) {

  Future<PublishLimits.Verdict> take(String key) {
    return limits.take(shards, key);
  }
}
