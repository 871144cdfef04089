package io.sluice.verticles.server.cluster;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The {@code sluice_cluster_*} series of one node. */
public final class ClusterMeters {

  private final Counter forwarded;
  private final Counter forwardedMessages;
  private final Counter forwardedRequests;
  private final Counter refusedMembers;
  private final Counter replicationHeld;
  private final Counter replicationRecopied;
  private final MeterRegistry registry;
  private final Timer replicationLag;
  private final AtomicLong lastLagNanos = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicInteger replicasInFlight = new java.util.concurrent.atomic.AtomicInteger();

  ClusterMeters(MeterRegistry registry, ClusterNode node) {
    this.registry = registry;
    Gauge.builder("sluice.cluster.members", node, n -> n.table().members().size())
        .description("Members of the cluster this node counts in its partition table").register(registry);
    Gauge.builder("sluice.cluster.partitions.owned", node, n -> n.states().serving())
        .description("Partitions this node serves as their owner").register(registry);
    Gauge.builder("sluice.cluster.partitions.backed.up", node, n -> n.table().backedUp(n.self()))
        .description("Partitions this node keeps a backup copy of").register(registry);
    Gauge.builder("sluice.cluster.partitions.awaiting", node, n -> n.states().awaiting())
        .description("Partitions this node owns but waits for the records of").register(registry);
    Gauge.builder("sluice.cluster.replication.lag.last", lastLagNanos, lag -> lag.get() / 1e9)
        .baseUnit("seconds")
        .description("Time from the first change of the last replicated batch to its backup's acknowledgement").register(registry);
    Gauge.builder("sluice.cluster.replication.in.flight", replicasInFlight, Number::doubleValue)
        .description("Messages of changes or copies sent to backups and not acknowledged yet (a shard thread's"
            + " changes about to ship count as one): zero means every change so far is on its backups").register(registry);
    replicationHeld = Counter.builder("sluice.cluster.replication.held")
        .description("Times a shard thread's changes waited for a backup that had " + ReplicaLane.MAX_UNACKNOWLEDGED
            + " batches not acknowledged yet (once per wait; they ship, merged, at its next acknowledgement)")
        .register(registry);
    replicationRecopied = Counter.builder("sluice.cluster.replication.recopied")
        .description("Partitions copied whole again to a backup that did not take a batch of their changes")
        .register(registry);
    forwarded = Counter.builder("sluice.cluster.forwarded.batches")
        .description("Batches of requests this node sent to the owner of their partition on another node").register(registry);
    forwardedMessages = Counter.builder("sluice.cluster.forwarded.messages")
        .description("Event-bus messages carrying the forwarded batches: batches per message show how much the"
            + " forwarding gathers").register(registry);
    forwardedRequests = Counter.builder("sluice.cluster.forwarded.key.requests")
        .description("Throttr key requests (INSERT to STAT) among the forwarded batches: requests that reached a node"
            + " not owning their key; sending each key to its owner keeps it at zero").register(registry);
    refusedMembers = Counter.builder("sluice.cluster.refused.members")
        .description("Hazelcast members refused a place in the cluster: no credentials proved on the event bus,"
            + " no Sluice node, or another --value-size").register(registry);
    replicationLag = Timer.builder("sluice.cluster.replication.lag")
        .description("Time from a change on the owner to its backup's acknowledgement of the batch carrying it")
        .publishPercentiles(0.5, 0.99).register(registry);
  }

  /** One message to another node, carrying {@code batches} batches of which {@code keyRequests} key requests. */
  void forwarded(int batches, int keyRequests) {
    forwardedMessages.increment();
    forwarded.increment(batches);
    forwardedRequests.increment(keyRequests);
  }

  /** A partition message dropped: not from a member, or not readable ({@link PartitionSenders}). */
  void refused(String kind) {
    Counter.builder("sluice.cluster.refused.messages").tag("kind", kind)
        .description("Handoff and replica messages dropped unapplied: not from a current member, or not readable")
        .register(registry).increment();
  }

  /** A Hazelcast member that gets no partition, record or request ({@link MemberAdmission}). */
  void refusedMember() {
    refusedMembers.increment();
  }

  void replicated(long lagNanos) {
    lastLagNanos.set(lagNanos);
    replicationLag.record(lagNanos, TimeUnit.NANOSECONDS);
  }

  void replicationHeld() {
    replicationHeld.increment();
  }

  void replicaRecopied() {
    replicationRecopied.increment();
  }

  void replicaSent() {
    replicasInFlight.incrementAndGet();
  }

  void replicaSettled() {
    replicasInFlight.decrementAndGet();
  }

  /** Messages to backups not acknowledged yet: zero means every change so far is on its backups. */
  public int replicasInFlight() {
    return replicasInFlight.get();
  }

  long lastLagNanos() {
    return lastLagNanos.get();
  }
}
