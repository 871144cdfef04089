package io.sluice.verticles.server.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Who takes part in the cluster, as this node hears it: Hazelcast's member list, the members that
 * said they are ready (their shards and inboxes serve), and those that said they are leaving.
 * Every change is told to the node's loop ({@code changed}), where the table is computed again.
 * Only members admitted over the event bus count ({@link MemberAdmission}); a member whose value
 * size differs from the oldest admitted member's is refused: it is logged once and gets no
 * partitions. Anyone who joins Hazelcast's port can write its maps, so the ready map only says who
 * to ask: where clients reach a member ({@link ClientAddresses}) is heard over the event bus.
 */
final class ClusterMembers {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
  static final String READY_MAP = "sluice.cluster.ready";
  /**
   * How often the ready map is read again: what a member said while this node's listener was being
   * moved over in a merge, or a write delayed past this node's reading at MERGED, is heard within it.
   */
  static final long READ_AGAIN_MILLIS = 3_000;

  private final HazelcastInstance hazelcast;
  private final String self;
  private final String valueSize;
  private final Set<String> refusedLogged = new HashSet<>();
  private final Set<String> leaving = ConcurrentHashMap.newKeySet();
  /** The members that said they are ready, as this node heard (kept here: reading the map blocks). */
  private final Set<String> readyIds = ConcurrentHashMap.newKeySet();
  /** The client addresses each member told over the event bus (never what the ready map says). */
  private final Map<String, String> published = new ConcurrentHashMap<>();
  private volatile IMap<String, String> readyMembers;
  private MemberAdmission admission;
  private MessageConsumer<JsonObject> addressesHeard;
  private Vertx vertx;
  private ClusterMeters meters;
  private UUID readyListener;
  private UUID membershipListener;
  private UUID lifecycleListener;
  private long readAgainTimer = -1;
  /**
   * One reading at a time: a reading blocks a worker thread while Hazelcast migrates (a merge), and
   * readings piled up every 3 s would take the workers the clustered event bus needs.
   */
  private final AtomicBoolean readingAgain = new AtomicBoolean();

  ClusterMembers(HazelcastInstance hazelcast, String valueSize) {
    this.hazelcast = hazelcast;
    this.self = nodeIdOf(hazelcast.getCluster().getLocalMember());
    this.valueSize = valueSize;
  }

  /**
   * A member's id in the partition table: its {@link HazelcastSetup#NODE_ID} (kept in its data
   * directory across restarts), or its Hazelcast UUID when it has none.
   */
  static String nodeIdOf(Member member) {
    String id = member.getAttribute(HazelcastSetup.NODE_ID);
    return id != null ? id : member.getUuid().toString();
  }

  /** This node's id. */
  String self() {
    return self;
  }

  /** Whether the member {@code id} said it is leaving. */
  boolean leaving(String id) {
    return leaving.contains(id);
  }

  /** Notes that {@code id} said it is leaving; on the node's loop. */
  void saidLeaving(String id) {
    leaving.add(id);
  }

  /**
   * Why this node may not join, or nothing: every member must use the value size of the oldest
   * member, and no other member may have this node's id (two nodes started on copies of one data
   * directory). The other members log the refusal too (see {@link #accepted}).
   */
  List<String> refusal() {
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

  /**
   * Follows Hazelcast's member list and the ready members: {@code changed} runs on {@code context}
   * after each change. A member takes part once its shards and inboxes serve: it says so in the
   * ready map, so that no partition is given to a node still starting. Hazelcast's calls block:
   * off the event loop.
   */
  Future<Void> follow(Vertx vertx, Context context, ClusterMeters meters, Clock clock, Runnable changed) {
    this.meters = meters;
    this.vertx = vertx;
    admission = new MemberAdmission(vertx, context, () -> hazelcast.getCluster().getLocalMember().getUuid(), self, meters,
        changed, () -> published.get(self), published::put, clock);
    // Where members' clients go is heard on the bus only: the ready map can be written by anyone
    // who joins Hazelcast's port.
    addressesHeard = vertx.eventBus().consumer(ClusterAddress.ADDRESSES, message ->
        published.put(message.body().getString("node"), message.body().getString("addresses")));
    Future<Void> answering = admission.start().compose(v -> addressesHeard.completion());
    membershipListener = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
        // A split that heals brings back members each side had removed from the ready map (see
        // memberRemoved): each ready node says so again, or the two sides never count each other.
        sayAgainIfReady();
        context.runOnContext(v -> changed.run());
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
        String id = nodeIdOf(event.getMember());
        admission.forget(event.getMember());
        if (event.getMembers().stream().anyMatch(member -> id.equals(nodeIdOf(member)))) {
          // Another member claims this id (a copy of a data directory, or a rogue): the one that
          // stays keeps its word that it is ready, and its addresses.
          context.runOnContext(v -> changed.run());
          return;
        }
        readyIds.remove(id);
        published.remove(id);
        if (readyMembers != null) {
          readyMembers.removeAsync(id);
        }
        context.runOnContext(v -> changed.run());
      }
    });
    lifecycleListener = hazelcast.getLifecycleService().addLifecycleListener(event -> {
      if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
        merged(context, changed);
      }
    });
    return answering.compose(v -> vertx.<Void>executeBlocking(() -> {
      readyMembers = hazelcast.getMap(READY_MAP);
      readyListener = readyMembers.addEntryListener(new ReadyListener(context, changed), true);
      readyMembers.keySet().forEach(readyIds::add);
      return null;
    })).onSuccess(v -> readAgainTimer = vertx.setPeriodic(READ_AGAIN_MILLIS, id -> readAgain(context, changed)));
  }

  /**
   * Adds the members the ready map names that this node had not heard of, and computes the table
   * again if there were any. The ready map's events are not enough after a merge: the merged node's
   * listener moves over to the other side's cluster a moment after it joined, and what was said
   * meanwhile never reaches it (a rolling restart with a split in it left a node counting two of
   * three members for good, docs/cluster.md).
   */
  private void readAgain(Context context, Runnable changed) {
    if (!readingAgain.compareAndSet(false, true)) {
      return;
    }
    vertx.executeBlocking(() -> {
      IMap<String, String> ready = readyMembers;
      boolean heard = false;
      if (ready != null) {
        for (String id : ready.keySet()) {
          heard |= readyIds.add(id);
        }
      }
      return heard;
    }, false).onComplete(read -> readingAgain.set(false)).onSuccess(heard -> {
      if (heard) {
        context.runOnContext(v -> changed.run());
      }
    });
  }

  /**
   * Hazelcast merged this node's side of a split into the other side's cluster: this node has a
   * new member UUID (it is asked and admitted again under it, {@link MemberAdmission}), and what the
   * other side's members said while its listeners were being moved over may not have reached it.
   * It reads the ready map again, and says again that it is ready.
   */
  private void merged(Context context, Runnable changed) {
    LOG.log(System.Logger.Level.WARNING, "cluster member " + self + " was merged into the cluster after a split"
        + " (Hazelcast member " + hazelcast.getCluster().getLocalMember().getUuid() + " now): reading the ready members"
        + " again and saying it is ready again; the partitions' copies of both sides are joined (docs/cluster.md)");
    vertx.executeBlocking(() -> {
      IMap<String, String> ready = readyMembers;
      if (ready != null) {
        ready.keySet().forEach(readyIds::add);
        sayAgainIfReady();
      }
      return null;
    }).onComplete(read -> context.runOnContext(v -> changed.run()));
  }

  /** Tells every member that this node is ready to take partitions. */
  Future<Void> sayReady(Context context) {
    return Future.fromCompletionStage(readyMembers.setAsync(self, "ready"), context).onSuccess(done -> readyIds.add(self));
  }

  private void sayAgainIfReady() {
    IMap<String, String> ready = readyMembers;
    if (ready != null && readyIds.contains(self)) {
      ready.setAsync(self, "ready");
    }
  }

  /** Tells every member where clients reach this node, once its listeners are bound. */
  Future<Void> publish(Context context, ClientAddresses addresses) {
    String value = addresses.toJson().encode();
    published.put(self, value);
    vertx.eventBus().publish(ClusterAddress.ADDRESSES, new JsonObject().put("node", self).put("addresses", value));
    return Future.fromCompletionStage(readyMembers.setAsync(self, value), context);
  }

  /** Where clients reach the member {@code id}, as it published, or empty. */
  Optional<ClientAddresses> addressesOf(String id) {
    return ClientAddresses.parse(published.get(id));
  }

  /**
   * A member joining the ready map changes the table; one publishing its addresses only changes
   * what {@link #addressesOf} says.
   */
  private final class ReadyListener implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String>,
      EntryRemovedListener<String, String> {

    private final Context context;
    private final Runnable changed;

    ReadyListener(Context context, Runnable changed) {
      this.context = context;
      this.changed = changed;
    }

    @Override
    public void entryAdded(EntryEvent<String, String> event) {
      readyIds.add(event.getKey());
      context.runOnContext(v -> changed.run());
    }

    @Override
    public void entryUpdated(EntryEvent<String, String> event) {
      // A member's addresses come over the event bus (MemberAdmission, ClusterAddress.ADDRESSES). A
      // member that says again that it is ready after a split healed: this side had forgotten it.
      if (readyIds.add(event.getKey())) {
        context.runOnContext(v -> changed.run());
      }
    }

    /**
     * This node's word that it is ready, removed while it still serves: by a member that saw it
     * leave during a split, its removal carried out only once the split healed. Said again, or the
     * members that read the map afterwards never count this node. (A leaving node removes this
     * listener before its word.)
     */
    @Override
    public void entryRemoved(EntryEvent<String, String> event) {
      if (event.getKey().equals(self)) {
        sayAgainIfReady();
      }
    }
  }

  /** Stops following, and withdraws this node's word that it is ready. */
  Future<Void> stop(Vertx vertx) {
    if (membershipListener == null) {
      return Future.succeededFuture();
    }
    vertx.cancelTimer(readAgainTimer);
    return admission.stop().compose(v -> addressesHeard.unregister()).recover(gone -> Future.succeededFuture()).compose(v -> vertx.executeBlocking(() -> {
      hazelcast.getCluster().removeMembershipListener(membershipListener);
      hazelcast.getLifecycleService().removeLifecycleListener(lifecycleListener);
      if (readyMembers != null) {
        readyMembers.removeEntryListener(readyListener);
        readyMembers.removeAsync(self);
      }
      return null;
    }));
  }

  /**
   * Members in join order that said they are ready, were admitted ({@link MemberAdmission}: asked
   * here once ready) and whose value size is the oldest admitted member's; others are refused,
   * once logged. Forgets the leaving members no longer among them.
   */
  List<String> accepted() {
    List<String> accepted = new ArrayList<>();
    String reference = null;
    for (Member member : hazelcast.getCluster().getMembers()) {
      String size = member.getAttribute(HazelcastSetup.VALUE_SIZE);
      String id = nodeIdOf(member);
      if (size == null || member.getAttribute(HazelcastSetup.NODE_ID) == null) {
        admission.refuse(member, "it is no Sluice node (a Hazelcast member without "
            + HazelcastSetup.NODE_ID + ")");
        continue;
      }
      if (!admission.admitted(member)) {
        if (readyIds.contains(id)) {
          admission.ask(member);
        }
        continue;
      }
      if (reference == null) {
        reference = size;
      }
      if (reference.equals(size)) {
        if (readyIds.contains(id) && !accepted.contains(id)) {
          accepted.add(id);
        }
      } else if (refusedLogged.add(id)) {
        meters.refusedMember();
        LOG.log(System.Logger.Level.ERROR, "refusing cluster member " + member.getAddress() + " (" + id
            + "): its --value-size " + size + " differs from this cluster's " + reference
            + "; it gets no partitions and no requests");
      }
    }
    leaving.retainAll(accepted);
    return accepted;
  }

  /** Whether members that said they are ready are still being asked to admit this node. */
  boolean settling() {
    return admission.settling();
  }

  /** The accepted members that count in the table: {@code accepted} but those leaving. */
  List<String> counted(List<String> accepted) {
    List<String> members = new ArrayList<>(accepted);
    members.removeAll(leaving);
    return members;
  }
}
