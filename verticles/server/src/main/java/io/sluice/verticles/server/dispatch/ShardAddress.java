package io.sluice.verticles.server.dispatch;

/** Event-bus addresses of the storage shards: the same on every node, so a cluster can place them anywhere. */
public final class ShardAddress {

  private ShardAddress() {
  }

  public static String of(int shard) {
    return "sluice.shard." + shard;
  }
}
