package io.sluice.verticles.server.pubsub;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

/**
 * How what is published to a channel reaches every event loop that may have someone listening:
 * it goes to each node's one fan-out address of its kind (every member's, from the cluster
 * manager's member list; a single node's own), where every event loop listens and looks up the
 * channel among its own. Two kinds: {@link #messages} for subscribers, {@link #presenceEvents}
 * for those who asked for joins and leaves.
 * <p>
 * Why one address per node and not one per channel: subscribing then registers nothing with the
 * cluster. Vert.x learns of a new registration on the other nodes some time after it completed
 * (their node selectors are updated by the cluster manager's events), so a message published
 * after a SUBSCRIBE was answered could miss it. A node's fan-out address exists from its start,
 * and messages from one node to another arrive in the order they were sent: whatever a loop
 * subscribed to before a message reaches it, it gets. Every node is sent every message, unless
 * the publisher's census found no subscriber anywhere; a cluster has a few nodes.
 * Thread-safe: the owner of a channel's history fans out from its shard thread.
 */
public final class ChannelFanOut {

  private static final DeliveryOptions HERE = new DeliveryOptions().setLocalOnly(true);
  private static final DeliveryOptions ANYWHERE = new DeliveryOptions();

  private final EventBus eventBus;
  private final ClusterManager cluster;
  private final String kind;

  private ChannelFanOut(Vertx vertx, String kind) {
    this.eventBus = vertx.eventBus();
    this.cluster = ((VertxInternal) vertx).clusterManager();
    this.kind = kind;
  }

  /** Channel messages, for subscribers. */
  public static ChannelFanOut messages(Vertx vertx) {
    return new ChannelFanOut(vertx, "messages");
  }

  /** WebSocket presence's join and leave events (each one's JSON text as the payload). */
  public static ChannelFanOut presenceEvents(Vertx vertx) {
    return new ChannelFanOut(vertx, "presence");
  }

  /** Where {@code node}'s event loops take this kind for every channel. */
  String address(String node) {
    return "sluice.fanout." + kind + "." + node;
  }

  /**
   * Hands this node's share of everything published, on the caller's event loop, to
   * {@code handler}; the consumer completes once the other nodes can send to it.
   */
  public Future<Void> listen(Handler<ChannelMessage> handler) {
    String node = cluster == null ? "local" : cluster.getNodeId();
    return eventBus.<ChannelMessage>consumer(address(node), message -> handler.handle(message.body())).completion();
  }

  /** Sends {@code message} to every event loop of every node. */
  public void publish(ChannelMessage message) {
    if (cluster == null) {
      eventBus.publish(address("local"), message, HERE);
      return;
    }
    String self = cluster.getNodeId();
    for (String node : cluster.getNodes()) {
      eventBus.publish(address(node), message, node.equals(self) ? HERE : ANYWHERE);
    }
  }
}
