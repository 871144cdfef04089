package io.sluice.verticles.server.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.StoreWork;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's part in the cluster: it follows Hazelcast's member list, computes the partition
 * table from it ({@link PartitionTable}: every node computes the same), and moves partitions when
 * the table changes:
 * <ul>
 *   <li>a partition whose owner died is served at once by its first backup, which holds its records;
 *   <li>a partition whose owner is alive but no longer first (a node joined, or the owner is
 *       leaving) is asked for ({@link ClusterAddress#handoff}): the old owner stops serving it on
 *       its shard thread, answers with its records, and the new owner serves once they are in;
 *       requests meanwhile come back unrun and their senders route them again;
 *   <li>an owner copies a partition whole to each backup that did not hold it (seed), then ships
 *       its changes ({@link ReplicaFeed}).
 * </ul>
 * Runs on its own event loop; every table change is handled there, one at a time.
 */
public final class ClusterNode extends VerticleBase implements ReplicaFeed.Shipper {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());

  /** How long a handoff, a seed or a graceful leave may take before the node goes on without it. */
  static final long HANDOFF_TIMEOUT_MILLIS = 10_000;
  private static final String READY_MAP = "sluice.cluster.ready";
  /**
   * A measuring aid, not an option: {@code -Dsluice.cluster.router-only=true} makes the node join
   * and serve its listeners without ever taking a partition, so that every request it gets goes
   * to another node (the non-owner figures of docs/benchmarks.md).
   */
  static final boolean ROUTER_ONLY = Boolean.getBoolean("sluice.cluster.router-only");
  /** How soon a handoff the previous owner answered "not yours (yet)" is asked again. */
  private static final long HANDOFF_RETRY_MILLIS = 100;

  private final HazelcastInstance hazelcast;
  private final String self;
  private final String valueSize;
  private final int backups;
  private final ShardDirectory directory;
  private final PartitionStates states;
  private final Map<Integer, ReplicaFeed> feeds;
  private final MeterRegistry registry;
  private final List<Store> stores;
  private final Clock clock;
  private PartitionSenders senders;
  private ClusterView view;
  private final Set<String> leaving = ConcurrentHashMap.newKeySet();
  private final Set<String> refusedLogged = new HashSet<>();
  private final Map<Integer, String> awaitingFrom = new HashMap<>();
  private MissedHandoffs missedHandoffs;
  private volatile PartitionTable table;
  private volatile boolean started;
  /** Set by the first table that counts this node: until then the partitions were the others'. */
  private boolean joined;
  private volatile IMap<String, String> readyMembers;
  /** The members that said they are ready, as this node heard (kept here: reading the map blocks). */
  private final Set<String> readyIds = ConcurrentHashMap.newKeySet();
  private UUID readyListener;
  private ClusterMeters meters;
  private ShardRouter local;
  private UUID membershipListener;
  private final List<MessageConsumer<?>> consumers = new ArrayList<>();
  private Set<Integer> handingOff = new HashSet<>();
  private Promise<Void> left;
  /**
   * Set once this node leaves: it then keeps every copy it holds instead of dropping those it
   * hands over, so that its data directory still holds them should a handover not land (every
   * node stopping at once); a copy kept so only adds keys an owner lacks when it comes back.
   */
  private volatile boolean leavingSelf;
  /**
   * What the stores held before this node took part (loaded from its data directory), by
   * partition; filled on the shard threads, read on this node's loop.
   */
  private final Map<Integer, ByteBuf> loaded = new ConcurrentHashMap<>();

  ClusterNode(HazelcastInstance hazelcast, String valueSize, int backups, ShardDirectory directory,
              PartitionStates states, Map<Integer, ReplicaFeed> feeds, List<Store> stores, MeterRegistry registry,
              Clock clock) {
    this.stores = stores;
    this.clock = clock;
    this.hazelcast = hazelcast;
    this.self = nodeIdOf(hazelcast.getCluster().getLocalMember());
    this.valueSize = valueSize;
    this.backups = backups;
    this.directory = directory;
    this.states = states;
    this.feeds = feeds;
    this.registry = registry;
    this.table = PartitionTable.of(List.of(), backups);
  }

  public String self() {
    return self;
  }

  /**
   * A member's id in the partition table: its {@link HazelcastSetup#NODE_ID} (kept in its data
   * directory across restarts), or its Hazelcast UUID when it has none.
   */
  static String nodeIdOf(Member member) {
    String id = member.getAttribute(HazelcastSetup.NODE_ID);
    return id != null ? id : member.getUuid().toString();
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
  public java.util.Optional<String> notReady() {
    if (!started || !table.members().contains(self)) {
      return java.util.Optional.of("not a member of the cluster's partition table (joining or leaving)");
    }
    int awaiting = states.awaiting();
    return awaiting == 0 ? java.util.Optional.empty()
        : java.util.Optional.of("waiting for the records of " + awaiting + " partitions from their previous owner");
  }

  /** This node's view of the cluster, for the dashboard ({@code /api/cluster}). */
  public ClusterView view() {
    return view;
  }

  /** Whether the member {@code id} said it is leaving. */
  boolean leaving(String id) {
    return leaving.contains(id);
  }

  @Override
  public Future<?> start() {
    meters = new ClusterMeters(registry, this);
    missedHandoffs = new MissedHandoffs(vertx);
    local = directory.localRouter(context);
    List<String> refusal = refusal();
    if (!refusal.isEmpty()) {
      return Future.failedFuture(String.join("; ", refusal));
    }
    senders = new PartitionSenders(hazelcast, self, valueSize, meters, clock);
    consumers.add(vertx.eventBus().<Buffer>consumer(ClusterAddress.replica(self), this::onReplica));
    consumers.add(vertx.eventBus().<Buffer>consumer(ClusterAddress.handoff(self), message -> {
      PartitionMessages.Handoff handoff = PartitionMessages.readHandoff(((BufferInternal) message.body()).getByteBuf());
      if (handoff == null) {
        senders.refuse("handoff", null, "not a handoff (" + message.body().length() + " bytes)");
        return;
      }
      if (!senders.member(handoff.sender())) {
        senders.refuse("handoff", handoff.sender(), "not a member of this cluster");
        return;
      }
      int partition = handoff.partition();
      if (!handoff.sender().equals(table.owner(partition))) {
        // Nodes see a change of members milliseconds apart: the asker asks again until this
        // node's table agrees, or gives up after its handoff timeout.
        message.fail(PartitionMessages.NOT_YOURS, "partition " + partition + " is not the asker's by this node's table");
        return;
      }
      ByteBuf[] records = new ByteBuf[1];
      onPartition(partition, store -> {
        states.set(partition, PartitionStates.NOT_SERVED);
        feeds.get(partition).discard();
        records[0] = Snapshots.take(store);
        if (!leavingSelf && !table.replicasOf(partition).contains(self)) {
          Snapshots.clear(store);
        }
      }).onComplete(done -> {
        message.reply(BufferInternal.buffer(records[0] != null ? records[0] : Unpooled.EMPTY_BUFFER));
        handedOff(partition);
      });
    }));
    view = new ClusterView(vertx, hazelcast, this, stores, backups);
    consumers.add(vertx.eventBus().consumer(ClusterAddress.figures(self), message -> message.reply(view.figures())));
    consumers.add(vertx.eventBus().<String>consumer(ClusterAddress.LEAVING, message -> {
      leaving.add(message.body());
      recompute();
    }));
    membershipListener = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
        context.runOnContext(v -> recompute());
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
        String id = nodeIdOf(event.getMember());
        readyIds.remove(id);
        if (readyMembers != null) {
          readyMembers.removeAsync(id);
        }
        context.runOnContext(v -> recompute());
      }
    });
    // A member takes part once its shards and inboxes serve: it says so in this map, so that no
    // partition is given to a node still starting. Hazelcast's calls block: off the event loop.
    return vertx.<Void>executeBlocking(() -> {
      readyMembers = hazelcast.getMap(READY_MAP);
      readyListener = readyMembers.addEntryListener((EntryAddedListener<String, String>) event -> {
        readyIds.add(event.getKey());
        context.runOnContext(v -> recompute());
      }, false);
      readyIds.addAll(readyMembers.keySet());
      return null;
    })
        .compose(v -> Future.all(consumers.stream().map(MessageConsumer::completion).toList()))
        .compose(v -> takeLoaded())
        .compose(v -> ROUTER_ONLY ? Future.succeededFuture()
            : Future.fromCompletionStage(readyMembers.setAsync(self, "ready"), context).onSuccess(done -> readyIds.add(self)))
        .onSuccess(v -> {
      recompute();
      started = true;
      handOverLoaded();
      LOG.log(System.Logger.Level.INFO, "cluster member " + self + " joined: " + table.members().size()
          + " members, owns " + table.owned(self) + " of " + PartitionTable.PARTITIONS + " partitions, backs up "
          + table.backedUp(self));
    });
  }

  /** Applies a replica message from a member on the partition's shard thread, then acknowledges it. */
  private void onReplica(io.vertx.core.eventbus.Message<Buffer> message) {
    PartitionMessages.Replica replica = PartitionMessages.readReplica(((BufferInternal) message.body()).getByteBuf());
    if (replica == null) {
      senders.refuse("replica", null, "not a replica message (" + message.body().length() + " bytes)");
      return;
    }
    if (!senders.member(replica.sender())) {
      senders.refuse("replica", replica.sender(), "not a member of this cluster");
      return;
    }
    ByteBuf in = replica.images();
    onPartition(replica.partition(), store -> {
      if (replica.kind() == PartitionMessages.RESET) {
        Snapshots.install(store, in);
      } else if (replica.kind() == PartitionMessages.MERGE) {
        Snapshots.merge(store, in);
      } else {
        Snapshots.apply(store, in);
      }
    }).onComplete(done -> message.reply(Buffer.buffer()));
  }

  @Override
  public Future<?> stop() {
    Future<Void> forgotten = membershipListener == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
      hazelcast.getCluster().removeMembershipListener(membershipListener);
      if (readyMembers != null) {
        readyMembers.removeEntryListener(readyListener);
        readyMembers.removeAsync(self);
      }
      return null;
    });
    return forgotten.recover(gone -> Future.succeededFuture())
        .compose(v -> Future.all(consumers.stream().map(MessageConsumer::unregister).toList()));
  }

  /**
   * Why this node may not join, or nothing: every member must use the value size of the oldest
   * member, and no other member may have this node's id (two nodes started on copies of one data
   * directory). The other members log the refusal too (see {@link #acceptedMembers}).
   */
  private List<String> refusal() {
    Member oldest = hazelcast.getCluster().getMembers().iterator().next();
    String theirs = oldest.getAttribute(HazelcastSetup.VALUE_SIZE);
    if (theirs != null && !theirs.equals(valueSize)) {
      return List.of("refused by the cluster: its members use --value-size " + theirs + ", this node "
          + valueSize + "; start it with the cluster's value size");
    }
    Member me = hazelcast.getCluster().getLocalMember();
    for (Member member : hazelcast.getCluster().getMembers()) {
      if (!member.getUuid().equals(me.getUuid()) && self.equals(nodeIdOf(member))) {
        return List.of("refused by the cluster: member " + member.getAddress() + " has this node's id " + self
            + " (from " + NodeIdentity.FILE + " in the data directory): each node needs its own data directory;"
            + " if it is this node's previous run, start again once the cluster has removed it (seconds)");
      }
    }
    return List.of();
  }

  /** Keeps a copy of every store that holds records before this node takes part: what its data directory gave. */
  private Future<Void> takeLoaded() {
    List<Future<Void>> taken = new ArrayList<>();
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      int partition = p;
      taken.add(onPartition(partition, store -> {
        if (store.size() > 0) {
          loaded.put(partition, Snapshots.take(store));
        }
      }));
    }
    return Future.all(taken).mapEmpty();
  }

  /**
   * Sends each loaded copy of a partition this node does not own to its owner, which adds the keys
   * it lacks (the records a whole-cluster stop left on this node's disk); a copy this node keeps
   * neither as owner nor as backup is then dropped.
   */
  private void handOverLoaded() {
    loaded.forEach((partition, records) -> {
      String owner = table.owner(partition);
      if (owner == null || owner.equals(self)) {
        records.release();
        return;
      }
      Promise<Void> taken = Promise.promise();
      sendReplica(owner, PartitionMessages.MERGE, partition, records, System.nanoTime(),
          System.nanoTime() + HANDOFF_TIMEOUT_MILLIS * 1_000_000, taken);
      taken.future().onSuccess(v -> {
        if (!table.replicasOf(partition).contains(self)) {
          onPartition(partition, store -> {
            if (!table.replicasOf(partition).contains(self)) {
              Snapshots.clear(store);
            }
          });
        }
      });
    });
    loaded.clear();
  }

  /**
   * Members in join order that said they are ready and whose value size is the oldest member's;
   * others are refused, once logged.
   */
  private List<String> acceptedMembers() {
    List<String> accepted = new ArrayList<>();
    String reference = null;
    java.util.Set<String> ready = readyIds;
    for (Member member : hazelcast.getCluster().getMembers()) {
      String size = member.getAttribute(HazelcastSetup.VALUE_SIZE);
      if (reference == null) {
        reference = size;
      }
      String id = nodeIdOf(member);
      if (reference.equals(size)) {
        if (ready.contains(id) && !accepted.contains(id)) {
          accepted.add(id);
        }
      } else if (refusedLogged.add(id)) {
        LOG.log(System.Logger.Level.ERROR, "refusing cluster member " + member.getAddress() + " (" + id
            + "): its --value-size " + size + " differs from this cluster's " + reference
            + "; it gets no partitions and no requests");
      }
    }
    return accepted;
  }

  /** Follows a change of members: the new table, and what this node must do about it. */
  private void recompute() {
    List<String> live = acceptedMembers();
    leaving.retainAll(live);
    List<String> members = new ArrayList<>(live);
    members.removeAll(leaving);
    if (!members.contains(self) && !joined && !ROUTER_ONLY) {
      return;
    }
    PartitionTable previous = table;
    boolean firstTable = !joined;
    if (!joined) {
      // Joining: the partitions were the others' until now.
      joined = true;
      List<String> others = new ArrayList<>(members);
      others.remove(self);
      previous = PartitionTable.of(others, backups);
    }
    PartitionTable next = PartitionTable.of(members, backups);
    table = next;
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      String was = previous.owner(p);
      String now = next.owner(p);
      boolean mine = self.equals(now);
      if (mine && !self.equals(was)) {
        if (was != null && live.contains(was)) {
          takeOver(p, was, firstTable);
        } else {
          states.set(p, PartitionStates.SERVING);
          seed(p, newBackups(p, previous, next));
        }
      } else if (mine) {
        String awaited = awaitingFrom.get(p);
        if (awaited != null && !live.contains(awaited)) {
          // The node it was coming from died: serve what replication brought here.
          awaitingFrom.remove(p);
          serveWithoutHandoff(p, awaited, "it left the cluster");
        }
        seed(p, newBackups(p, previous, next));
      } else {
        awaitingFrom.remove(p);
        states.set(p, PartitionStates.NOT_SERVED);
        if (!leavingSelf && !self.equals(was) && !next.replicasOf(p).contains(self)
            && previous.replicasOf(p).contains(self)) {
          onPartition(p, Snapshots::clear);
        }
      }
    }
  }

  private List<String> newBackups(int partition, PartitionTable previous, PartitionTable next) {
    List<String> fresh = new ArrayList<>(next.backupsOf(partition));
    fresh.removeAll(previous.replicasOf(partition));
    return fresh;
  }

  /**
   * Asks the partition's previous owner for it; serves it once its records are in. With
   * {@code keepLoaded} (this node's first table: its stores hold what its data directory gave), the
   * records loaded here join the previous owner's, whose copy wins for a key both hold (it served
   * meanwhile).
   */
  private void takeOver(int partition, String from, boolean keepLoaded) {
    states.set(partition, PartitionStates.AWAITING);
    awaitingFrom.put(partition, from);
    askHandoff(partition, from, keepLoaded, System.nanoTime() + HANDOFF_TIMEOUT_MILLIS * 1_000_000);
  }

  /** Asks {@code from} for the partition, again while it answers that its table does not agree yet. */
  private void askHandoff(int partition, String from, boolean keepLoaded, long deadlineNanos) {
    long leftMillis = Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000);
    Buffer ask = BufferInternal.buffer(PartitionMessages.handoff(partition, self));
    vertx.eventBus().<Buffer>request(ClusterAddress.handoff(from), ask, new DeliveryOptions().setSendTimeout(leftMillis))
        .onComplete(reply -> {
          if (!from.equals(awaitingFrom.get(partition))) {
            return;
          }
          if (reply.failed() && PartitionMessages.notYours(reply.cause())
              && System.nanoTime() + HANDOFF_RETRY_MILLIS * 1_000_000 < deadlineNanos) {
            vertx.setTimer(HANDOFF_RETRY_MILLIS, id -> {
              if (from.equals(awaitingFrom.get(partition))) {
                askHandoff(partition, from, keepLoaded, deadlineNanos);
              }
            });
            return;
          }
          awaitingFrom.remove(partition);
          if (reply.failed()) {
            serveWithoutHandoff(partition, from, LogText.failure(reply.cause()));
            return;
          }
          ByteBuf records = ((BufferInternal) reply.result().body()).getByteBuf();
          onPartition(partition, store -> {
            ByteBuf own = keepLoaded ? Snapshots.take(store) : Unpooled.EMPTY_BUFFER;
            Snapshots.install(store, records);
            Snapshots.merge(store, own);
            states.set(partition, PartitionStates.SERVING);
          }).onSuccess(v -> {
            List<String> others = new ArrayList<>(table.backupsOf(partition));
            others.remove(from);
            seed(partition, others);
          });
        });
  }

  private void serveWithoutHandoff(int partition, String from, String why) {
    missedHandoffs.missed(partition, from, why);
    onPartition(partition, store -> states.set(partition, PartitionStates.SERVING))
        .onSuccess(v -> seed(partition, table.backupsOf(partition)));
  }

  /** Copies the partition whole to each of {@code targets}, on its shard thread, before any later change. */
  private void seed(int partition, List<String> targets) {
    if (targets.isEmpty()) {
      return;
    }
    onPartition(partition, store -> {
      if (!states.serving(partition)) {
        return;
      }
      ByteBuf records = Snapshots.take(store);
      for (String target : targets) {
        sendReplica(target, PartitionMessages.RESET, partition, records.retainedDuplicate(), System.nanoTime(), System.nanoTime() + HANDOFF_TIMEOUT_MILLIS * 1_000_000, null);
      }
      records.release();
    });
  }

  @Override
  public boolean hasBackups(int partition) {
    return table.hasBackups(partition);
  }

  @Override
  public void ship(int partition, ByteBuf images, long firstChangeNanos) {
    for (String backup : table.backupsOf(partition)) {
      sendReplica(backup, PartitionMessages.CHANGES, partition, images.retainedDuplicate(), firstChangeNanos, 0, null);
    }
    images.release();
  }

  /**
   * Sends images to a backup; acknowledged once applied there. A backup not registered yet (it is
   * joining) is tried again until {@code retryUntilNanos}.
   *
   * @param acked completed once applied there, failed when given up; null for none
   */
  private void sendReplica(String backup, byte kind, int partition, ByteBuf images, long sinceNanos, long retryUntilNanos,
                           Promise<Void> acked) {
    ByteBuf message = PartitionMessages.replica(kind, partition, self, images);
    meters.replicaSent();
    vertx.eventBus().request(ClusterAddress.replica(backup), BufferInternal.buffer(message)).onComplete(ack -> {
      meters.replicaSettled();
      if (ack.succeeded()) {
        meters.replicated(System.nanoTime() - sinceNanos);
        if (acked != null) {
          acked.complete();
        }
      } else if (ack.cause() instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS
          && System.nanoTime() < retryUntilNanos) {
        ByteBuf again = PartitionMessages.imagesOf(message);
        vertx.setTimer(100, id -> sendReplica(backup, kind, partition, again, sinceNanos, retryUntilNanos, acked));
      } else {
        LOG.log(System.Logger.Level.WARNING, "partition " + partition + ": " + backup + " did not take "
            + (kind == PartitionMessages.RESET ? "its copy" : kind == PartitionMessages.MERGE ? "the copy loaded here" : "changes") + ": "
            + LogText.failure(ack.cause()));
        if (acked != null) {
          acked.fail(ack.cause());
        }
      }
    });
  }

  /** Runs {@code work} on the partition's store, on its shard thread, in order with its requests. */
  private Future<Void> onPartition(int partition, StoreWork work) {
    ShardBatch batch = new ShardBatch(partition);
    batch.add(work);
    return Future.fromCompletionStage(local.send(batch)).compose(filled -> {
      Throwable failure = filled.firstFailure();
      if (failure != null) {
        LOG.log(System.Logger.Level.ERROR, "partition " + partition + ": " + LogText.failure(failure));
        return Future.failedFuture(failure);
      }
      return Future.succeededFuture();
    });
  }

  /**
   * Leaves gracefully: tells every member, which then stop counting this node, waits until the new
   * owners have taken every partition this node owned (or {@link #HANDOFF_TIMEOUT_MILLIS}), and
   * completes. Hazelcast membership ends when the Vert.x closes.
   */
  public Future<Void> leave() {
    return Future.<Void>future(promise -> context.runOnContext(v -> {
      leavingSelf = true;
      if (table.members().size() <= 1 || !table.members().contains(self)) {
        promise.complete();
        return;
      }
      handingOff = new HashSet<>();
      for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
        if (self.equals(table.owner(p))) {
          handingOff.add(p);
        }
      }
      left = promise;
      long timer = vertx.setTimer(HANDOFF_TIMEOUT_MILLIS, id -> {
        if (!handingOff.isEmpty()) {
          LOG.log(System.Logger.Level.WARNING, "leaving with " + handingOff.size() + " partitions not taken over");
        }
        promise.tryComplete();
      });
      promise.future().onComplete(done -> vertx.cancelTimer(timer));
      LOG.log(System.Logger.Level.INFO, "leaving the cluster: handing " + handingOff.size() + " partitions over");
      vertx.eventBus().publish(ClusterAddress.LEAVING, self);
    }));
  }

  private void handedOff(int partition) {
    if (left != null && handingOff.remove(partition) && handingOff.isEmpty()) {
      left.tryComplete();
    }
  }
}
