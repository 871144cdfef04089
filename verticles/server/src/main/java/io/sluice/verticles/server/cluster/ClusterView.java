package io.sluice.verticles.server.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.storage.Store;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * This node's view of the cluster, as the dashboard's {@code /api/cluster} shows it: the members
 * by this node's table, each with the figures it reports itself (its keys, its replication), asked
 * over the event bus with a bounded timeout; a member that does not answer in time shows
 * {@code "answered": false} and no figures.
 */
public final class ClusterView {

  private static final System.Logger LOG = System.getLogger(ClusterView.class.getName());

  /** How long the dashboard's view waits for a member's figures before showing it without them. */
  static final long FIGURES_TIMEOUT_MILLIS = 2_000;

  private final Vertx vertx;
  private final HazelcastInstance hazelcast;
  private final ClusterNode node;
  private final List<Store> stores;
  private final int backups;

  ClusterView(Vertx vertx, HazelcastInstance hazelcast, ClusterNode node, List<Store> stores, int backups) {
    this.vertx = vertx;
    this.hazelcast = hazelcast;
    this.node = node;
    this.stores = stores;
    this.backups = backups;
  }

  public Future<JsonObject> describe() {
    PartitionTable now = node.table();
    String self = node.self();
    Map<String, Member> byId = new HashMap<>();
    hazelcast.getCluster().getMembers().forEach(member -> byId.put(ClusterMembers.nodeIdOf(member), member));
    List<Future<JsonObject>> described = new ArrayList<>();
    for (String id : now.members()) {
      Member member = byId.get(id);
      JsonObject entry = new JsonObject()
          .put("id", id)
          .put("address", member == null ? null : member.getAddress().toString())
          .put("self", id.equals(self))
          .put("state", node.leaving(id) ? "LEAVING" : id.equals(self) && !node.ready() ? "JOINING" : "UP")
          .put("partitionsOwned", now.owned(id))
          .put("partitionsBackedUp", now.backedUp(id));
      Future<JsonObject> figures = id.equals(self) ? Future.succeededFuture(figures())
          : vertx.eventBus().<JsonObject>request(ClusterAddress.figures(id), null,
              new DeliveryOptions().setSendTimeout(FIGURES_TIMEOUT_MILLIS)).map(reply -> reply.body());
      described.add(figures.map(theirs -> entry.put("answered", true).mergeIn(theirs)).otherwise(failure -> {
        LOG.log(System.Logger.Level.WARNING, "member " + id + " did not report its figures: " + LogText.failure(failure));
        return entry.put("answered", false);
      }));
    }
    return Future.all(described).map(all -> {
      JsonArray members = new JsonArray();
      described.forEach(member -> members.add(member.result()));
      return new JsonObject()
          .put("self", self)
          .put("partitions", PartitionTable.PARTITIONS)
          .put("backups", backups)
          .put("ready", node.ready())
          .put("members", members)
          .mergeIn(figures());
    });
  }

  /** What this node alone knows of itself: the keys it serves and its replication to its backups. */
  JsonObject figures() {
    PartitionStates states = node.states();
    long keys = 0;
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      if (states.serving(p)) {
        keys += stores.get(p).size();
      }
    }
    ClusterMeters meters = node.meters();
    return new JsonObject()
        .put("servingPartitions", states.serving())
        .put("keys", keys)
        .put("awaitingPartitions", states.awaiting())
        .put("replicationLagMillis", meters.lastLagNanos() / 1e6)
        .put("replicationInFlight", meters.replicasInFlight());
  }
}
