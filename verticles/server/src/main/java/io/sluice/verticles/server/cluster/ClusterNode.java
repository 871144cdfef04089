package io.sluice.verticles.server.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.storage.Store;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * This node's part in the cluster: it follows the members ({@link ClusterMembers}), computes the
 * partition table from them ({@link PartitionTable}: every node computes the same), and moves
 * partitions when the table changes:
 * <ul>
 *   <li>a partition whose owner died is served at once by its first backup, which holds its records;
 *   <li>a partition whose owner is alive but no longer first (a node joined, or the owner is
 *       leaving, {@link GracefulLeave}) is asked for ({@link PartitionHandoff});
 *   <li>an owner copies a partition whole to each backup that did not hold it, then ships its
 *       changes ({@link ReplicaSeeding}, {@link ReplicaFeed});
 *   <li>what this node's data directory held goes to the partitions' owners ({@link LoadedCopies}).
 * </ul>
 * Runs on its own event loop; every table change is handled there, one at a time.
 */
public final class ClusterNode extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());

  /** How long a handoff, a seed or a graceful leave may take before the node goes on without it. */
  static final long HANDOFF_TIMEOUT_MILLIS = 10_000;
  /**
   * A measuring aid, not an option: {@code -Dsluice.cluster.router-only=true} makes the node join
   * and serve its listeners without ever taking a partition, so that every request it gets goes
   * to another node (the non-owner figures of docs/benchmarks.md).
   */
  static final boolean ROUTER_ONLY = Boolean.getBoolean("sluice.cluster.router-only");

  /** When a handoff, a seed or a retry that begins now gives up ({@link #HANDOFF_TIMEOUT_MILLIS} from now). */
  static long handoffDeadlineNanos() {
    return System.nanoTime() + HANDOFF_TIMEOUT_MILLIS * 1_000_000;
  }

  private final HazelcastInstance hazelcast;
  private final ClusterMembers members;
  private final String self;
  private final String valueSize;
  private final int backups;
  private final ClusterPartitions partitions;
  private final PartitionStates states;
  private final MeterRegistry registry;
  private final List<MessageConsumer<?>> consumers = new ArrayList<>();
  private ClusterMeters meters;
  private ClusterView view;
  private PartitionWork work;
  private ReplicaSeeding seeding;
  private PartitionHandoff handoff;
  private GracefulLeave leave;
  private LoadedCopies loaded;
  private volatile PartitionTable table;
  private volatile boolean started;
  /** Set by the first table that counts this node: until then the partitions were the others'. */
  private boolean joined;

  ClusterNode(HazelcastInstance hazelcast, String valueSize, int backups, ClusterPartitions partitions,
              MeterRegistry registry) {
    this.hazelcast = hazelcast;
    this.members = new ClusterMembers(hazelcast, valueSize);
    this.self = members.self();
    this.valueSize = valueSize;
    this.backups = backups;
    this.partitions = partitions;
    this.states = partitions.states();
    this.registry = registry;
    this.table = PartitionTable.of(List.of(), backups);
  }

  public String self() {
    return self;
  }

  public PartitionTable table() {
    return table;
  }

  public PartitionStates states() {
    return states;
  }

  public ClusterMeters meters() {
    return meters;
  }

  /** Joined, counted in the table, and serving every partition it owns (none still awaited). */
  public boolean ready() {
    return notReady().isEmpty();
  }

  /** Why this node is not ready yet, or empty. */
  public Optional<String> notReady() {
    if (!started || !table.members().contains(self)) {
      return Optional.of("not a member of the cluster's partition table (joining or leaving)");
    }
    int awaiting = states.awaiting();
    return awaiting == 0 ? Optional.empty()
        : Optional.of("waiting for the records of " + awaiting + " partitions from their previous owner");
  }

  /** This node's loop, where its coordination runs, and where {@link #seeding} and {@link #work} are used. */
  Context loop() {
    return context;
  }

  /** How this node copies partitions to other members (the heal's tests make two copies meet through it). */
  ReplicaSeeding seeding() {
    return seeding;
  }

  /** Work on this node's partition stores, in order with their requests. */
  PartitionWork work() {
    return work;
  }

  /** This node's view of the cluster, for the dashboard ({@code /api/cluster}). */
  public ClusterView view() {
    return view;
  }

  /**
   * Tells the other members where clients reach this node (its listeners, now bound). A
   * router-only node owns nothing, and publishing would put it in the ready map: it does not.
   */
  public Future<Void> publish(ClientAddresses addresses) {
    return ROUTER_ONLY ? Future.succeededFuture() : members.publish(context, addresses);
  }

  /** Where clients reach the member {@code id}, as it published, or empty while it has not. */
  Optional<ClientAddresses> addressesOf(String id) {
    return members.addressesOf(id);
  }

  /** Whether the member {@code id} said it is leaving. */
  boolean leaving(String id) {
    return members.leaving(id);
  }

  @Override
  public Future<?> start() {
    meters = new ClusterMeters(registry, this);
    leave = new GracefulLeave(context, self, this::table);
    List<String> refusal = members.refusal();
    if (!refusal.isEmpty()) {
      return Future.failedFuture(String.join("; ", refusal));
    }
    PartitionSenders senders = new PartitionSenders(hazelcast, self, valueSize, meters, partitions.clock());
    work = new PartitionWork(partitions.directory().localRouter(context));
    SplitCopies splitCopies = new SplitCopies(states);
    seeding = new ReplicaSeeding(vertx, context, self, this::table, states, work, senders, meters, splitCopies);
    partitions.shipThrough(seeding);
    handoff = new PartitionHandoff(vertx, self, this::table, states, partitions.feeds(), work, seeding, senders, leave,
        splitCopies);
    loaded = new LoadedCopies(self, this::table, work, seeding);
    view = new ClusterView(vertx, hazelcast, this, partitions.stores(), backups);
    consumers.add(vertx.eventBus().<Buffer>consumer(ClusterAddress.replica(self), seeding::onReplica));
    consumers.add(vertx.eventBus().<Buffer>consumer(ClusterAddress.handoff(self), handoff::onAsked));
    consumers.add(vertx.eventBus().consumer(ClusterAddress.figures(self), message -> message.reply(view.figures())));
    consumers.add(vertx.eventBus().<String>consumer(ClusterAddress.LEAVING, message -> {
      members.saidLeaving(message.body());
      recompute();
    }));
    return members.follow(vertx, context, meters, partitions.clock(), this::recompute)
        .compose(v -> Future.all(consumers.stream().map(MessageConsumer::completion).toList()))
        .compose(v -> loaded.take())
        .compose(v -> ROUTER_ONLY ? Future.succeededFuture() : members.sayReady(context))
        .onSuccess(v -> {
          started = true;
          recompute();
        });
  }

  @Override
  public Future<?> stop() {
    return members.stop(vertx).recover(gone -> Future.succeededFuture())
        .compose(v -> Future.all(consumers.stream().map(MessageConsumer::unregister).toList()));
  }

  /** Follows a change of members: the new table, and what this node must do about it. */
  private void recompute() {
    List<String> live = members.accepted();
    List<String> counted = members.counted(live);
    if (!joined && !ROUTER_ONLY && (!started || !counted.contains(self) || members.settling())) {
      // Not before the ready members answered or were refused: alone, it would serve them all.
      return;
    }
    PartitionTable previous = table;
    boolean firstTable = !joined;
    if (!joined) {
      // Joining: the partitions were the others' until now.
      joined = true;
      List<String> others = new ArrayList<>(counted);
      others.remove(self);
      previous = PartitionTable.of(others, backups);
    }
    PartitionTable next = PartitionTable.of(counted, backups);
    // The new table is visible (and the node may read ready) before the loop below decides the
    // copies it needs: counted in flight meanwhile, so no wait for the backups ends in between.
    meters.replicaSent();
    try {
      table = next;
      follow(previous, next, live, firstTable);
    } finally {
      meters.replicaSettled();
    }
    if (firstTable) {
      loaded.handOver();
      LOG.log(System.Logger.Level.INFO, "cluster member " + self + " joined: " + next.members().size()
          + " members, owns " + next.owned(self) + " of " + PartitionTable.PARTITIONS + " partitions, backs up "
          + next.backedUp(self));
    }
  }

  /** Per partition, what the change from {@code previous} to {@code next} asks of this node. */
  private void follow(PartitionTable previous, PartitionTable next, List<String> live, boolean firstTable) {
    boolean membersChanged = !next.members().equals(previous.members());
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      String was = previous.owner(p);
      boolean mine = self.equals(next.owner(p));
      if (mine && !self.equals(was)) {
        if (was != null && live.contains(was)) {
          handoff.takeOver(p, was, firstTable);
        } else {
          if (was != null) {
            // Its owner is gone without a handoff: queued on the shard thread before the requests
            // that find the partition served.
            work.on(p, TakenOverHistories::renew);
          }
          states.set(p, PartitionStates.SERVING);
          seeding.seedNewBackups(p, previous, next);
        }
      } else if (mine) {
        if (membersChanged && states.serving(p)) {
          // Kept across a change of members (a split among them): a copy the node it was handed
          // over from sends now was served apart, and is joined.
          states.released(p);
        }
        // The node its records were coming from died: serve what replication brought here.
        handoff.unlessAwaitedFromGone(p, live);
        seeding.seedNewBackups(p, previous, next);
      } else {
        handoff.forget(p);
        boolean servedHere = states.serving(p);
        states.set(p, PartitionStates.NOT_SERVED);
        String owner = next.owner(p);
        if (servedHere && owner != null && live.contains(owner) && !previous.members().contains(owner)) {
          // An owner this node did not see asks the owner it saw, not this node: after a split it
          // served this partition too, and the two copies must meet (at a plain join the copy
          // sent equals the one the joiner asks for, and joining it changes nothing).
          seeding.sendServedCopy(p, owner);
        }
        if (!leave.keepsEveryCopy() && !self.equals(was) && !next.replicasOf(p).contains(self)
            && previous.replicasOf(p).contains(self)) {
          work.on(p, Snapshots::clear);
        }
      }
    }
  }

  /** Hands every partition this node owns to its next owner; see {@link GracefulLeave}. */
  public Future<Void> leave() {
    return leave.leave();
  }
}
