package io.sluice.verticles.server.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.time.Clock;

import java.nio.charset.StandardCharsets;

/**
 * Who may move this node's partitions: a handoff or a replica message counts only when the node
 * id it names is a member this node sees now (Hazelcast's member list, with the cluster's value
 * size) other than itself. Anything else is dropped, counted in
 * {@code sluice_cluster_refused_messages_total} and logged once per claimed sender.
 */
final class PartitionSenders {

  private static final System.Logger LOG = System.getLogger(PartitionSenders.class.getName());

  private final HazelcastInstance hazelcast;
  private final String self;
  private final String valueSize;
  private final ClusterMeters meters;
  private final PeerLog log;

  PartitionSenders(HazelcastInstance hazelcast, String self, String valueSize, ClusterMeters meters, Clock clock) {
    this.hazelcast = hazelcast;
    this.self = self;
    this.valueSize = valueSize;
    this.meters = meters;
    this.log = new PeerLog(clock);
  }

  /** Whether {@code id} names another member of the cluster as this node sees it now. */
  boolean member(String id) {
    if (id.equals(self)) {
      return false;
    }
    for (Member member : hazelcast.getCluster().getMembers()) {
      if (id.equals(ClusterMembers.nodeIdOf(member)) && valueSize.equals(member.getAttribute(HazelcastSetup.VALUE_SIZE))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Drops a message: counts it and logs it once per claimed sender.
   *
   * @param kind   what it was ({@code handoff}, {@code replica})
   * @param sender the node id it claims, or null when it could not be read
   */
  void refuse(String kind, String sender, String why) {
    meters.refused(kind);
    String peer = sender == null ? "(unreadable)" : LogText.key(sender.getBytes(StandardCharsets.UTF_8));
    log.refused(LOG, kind + " " + peer, "refusing a " + kind + " message claiming to come from " + peer + ": " + why
        + "; nothing of it was applied (further ones from this sender are counted in"
        + " sluice_cluster_refused_messages_total, not logged)");
  }
}
