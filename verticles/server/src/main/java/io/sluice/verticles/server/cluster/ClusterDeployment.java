package io.sluice.verticles.server.cluster;

import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.instance.ConnectionRegistry;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Starts this node's part of the cluster once its shards serve: the coordinator
 * ({@link ClusterNode}), one {@link WorkInbox} per event loop (at most {@link WorkInbox#ADDRESSES}),
 * the answers to other nodes' CONNECTIONs ({@link ClusterConnections}), and the cluster routers
 * every front gets from the directory from then on.
 */
public final class ClusterDeployment {

  private final ClusterNode node;

  private ClusterDeployment(ClusterNode node) {
    this.node = node;
  }

  /**
   * @param deploy deploys a verticle and tracks it for the server's stop
   */
  public static Future<ClusterDeployment> start(Vertx vertx, ClusterPartitions partitions, ClusterSettings settings,
                                                ValueSize size, TaskCodecs tasks, ConnectionRegistry connections,
                                                int loops, MeterRegistry registry,
                                                Function<io.vertx.core.Deployable, Future<String>> deploy) {
    if (!(((VertxInternal) vertx).clusterManager() instanceof HazelcastClusterManager hazelcast)) {
      return Future.failedFuture("--cluster needs a Vert.x clustered with Hazelcast");
    }
    ClusterNode node = new ClusterNode(hazelcast.getHazelcastInstance(), size.label(), settings.backups(), partitions,
        registry);
    BatchWire wire = new BatchWire(size, tasks);
    // Each router (one per front and loop) sends to one work address of every owner, the routers in turn.
    AtomicInteger routers = new AtomicInteger();
    partitions.directory().routeThrough((context, local) -> new ClusterRouter(context, node, local, wire,
        routers.getAndIncrement() % WorkInbox.ADDRESSES));
    List<Future<String>> inboxes = new ArrayList<>();
    for (List<Integer> addresses : WorkInbox.addressesOf(loops)) {
      inboxes.add(deploy.apply(
          new WorkInbox(node.self(), partitions.directory(), wire, partitions.clock(), addresses)));
    }
    return Future.all(inboxes).compose(v -> ClusterConnections.start(vertx, node, connections))
        .compose(v -> deploy.apply(node)).map(id -> new ClusterDeployment(node));
  }

  public ClusterNode node() {
    return node;
  }

  /**
   * {@code GET /api/cluster}: members, their state, partitions, keys and replication, as JSON; with
   * the token when one is configured, as every {@code /api/} call.
   */
  public io.vertx.core.Handler<io.vertx.ext.web.RoutingContext> api(BearerToken token) {
    return new Endpoint(List.of(HttpMethod.GET, HttpMethod.HEAD), token, context -> node.view().describe().compose(described ->
        context.response().putHeader("content-type", Endpoint.JSON).end(described.encode())));
  }

  /**
   * {@code GET /api/cluster/partitions}: each partition's owner and where clients reach it, with
   * the key hash and a version (docs/cluster.md); with the token when one is configured.
   */
  public io.vertx.core.Handler<io.vertx.ext.web.RoutingContext> partitionsApi(BearerToken token) {
    PartitionOwners owners = new PartitionOwners(node);
    return new Endpoint(List.of(HttpMethod.GET, HttpMethod.HEAD), token, context ->
        context.response().putHeader("content-type", Endpoint.JSON).end(owners.describe().encode()));
  }

  /** Tells the other members where clients reach this node, once its listeners are bound. */
  public Future<Void> publish(ClientAddresses addresses) {
    return node.publish(addresses);
  }

  /** Hands every partition this node owns to its next owner; see {@link ClusterNode#leave}. */
  public Future<Void> leave() {
    return node.leave();
  }
}
