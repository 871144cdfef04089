package io.sluice.verticles.server.cluster;

/** Event-bus addresses between the nodes of a cluster, each naming the node (its Hazelcast member UUID) it reaches. */
final class ClusterAddress {

  /**
   * Batches of client work for the partitions a node owns, to the {@code index}th of its
   * {@link WorkInbox#ADDRESSES} work addresses.
   */
  static String work(String node, int index) {
    return "sluice.cluster.work." + node + "." + index;
  }

  /** Record images for the partitions a node backs up. */
  static String replica(String node) {
    return "sluice.cluster.replica." + node;
  }

  /** Asks a node for a partition it owned, with its records, so the asker may own it. */
  static String handoff(String node) {
    return "sluice.cluster.handoff." + node;
  }

  /** Asks a node for its own figures (keys, replication), for the dashboard's view of every node. */
  static String figures(String node) {
    return "sluice.cluster.figures." + node;
  }

  /** Asks a node for one of its client connections, by ID (a CONNECTION made on another node). */
  static String connection(String node) {
    return "sluice.cluster.connection." + node;
  }

  /**
   * Asks the node {@code node} (its id, {@link HazelcastSetup#NODE_ID}: kept when Hazelcast merges
   * it after a split, unlike its member UUID) to admit the asker, a Hazelcast member UUID, answered
   * with the node's own: heard only from a holder of the cluster's credentials when the bus speaks
   * mutual TLS.
   */
  static String admit(String node) {
    return "sluice.cluster.admit." + node;
  }

  /** Published by a node once its listeners are bound: its id and where clients reach it. */
  static final String ADDRESSES = "sluice.cluster.addresses";

  /** Published by a node that leaves gracefully, carrying its id. */
  static final String LEAVING = "sluice.cluster.leaving";

  private ClusterAddress() {
  }
}
