package io.sluice.verticles.server.cluster;

import com.hazelcast.cluster.Member;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Which Hazelcast members proved, over the clustered event bus, that they are Sluice nodes: only
 * those are ranked for partitions, sent records or requests. Hazelcast's member port authenticates
 * no one (its security is an Enterprise feature), so a member in Hazelcast's list proves nothing;
 * with {@link MemberCredentials} the bus speaks mutual TLS ({@link MemberTls}), so a message that
 * arrives on it comes from a holder of the credentials. Each node asks every member that says it
 * is ready to admit it ({@link ClusterAddress#admit}): the one asked admits the asker, the asker
 * admits whoever answered. Each admits only the member a message names as its sender, and members
 * name only themselves, so no member can vouch for another. A node is asked at its node id, and
 * names itself by its Hazelcast member UUID as it is when it answers: a member that Hazelcast merged
 * into another cluster after a split has a new UUID, and is asked and admitted again under it. The ask and the answer also carry the
 * sender's node id and the client addresses it published, if any: what Hazelcast's ready map says of
 * them is not trusted ({@link ClusterMembers}).
 *
 * <p>A member that does not answer within {@link #WINDOW_MILLIS} of being asked (it cannot
 * complete a handshake, runs no Sluice at all, or its answers were lost while the bus's connections
 * were made again after a merge) is refused: one WARNING line naming it and
 * {@code sluice_cluster_refused_members_total}, once. It is admitted if it asks, and it is asked
 * again with backoff ({@link AskingAgain}): a genuine member answers then and counts again, one
 * without the credentials never can. A member without a node's attributes is never asked.
 * Without credentials the same exchange runs on a plain bus: it then proves only that the member
 * runs a Sluice node.
 */
final class MemberAdmission {

  private static final System.Logger LOG = System.getLogger(MemberAdmission.class.getName());
  static final long ASK_TIMEOUT_MILLIS = 2_000;
  static final long RETRY_MILLIS = 250;
  static final long WINDOW_MILLIS = 5_000;

  private final Vertx vertx;
  private final Context context;
  /** This node's Hazelcast member UUID now: Hazelcast gives it a new one when it merges after a split. */
  private final Supplier<UUID> self;
  private final ClusterMeters meters;
  private final Runnable changed;
  private final String nodeId;
  private final Supplier<String> ownAddresses;
  private final BiConsumer<String, String> heardAddresses;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();
  /** The members being asked, with when their window closes ({@link System#nanoTime()}). */
  private final Map<String, Long> asking = new ConcurrentHashMap<>();
  private final Map<String, Refusal> refused = new ConcurrentHashMap<>();
  private final AskingAgain again;
  /** The lines of members asked again: many members refused at once must not flood the log. */
  private final LogLimiter againLog;
  private MessageConsumer<JsonObject> consumer;

  /**
   * @param changed        runs on {@code context} whenever a member is admitted
   * @param ownAddresses   what this node published of its client addresses, or null
   * @param heardAddresses takes a member's node id and the addresses it published
   */
  MemberAdmission(Vertx vertx, Context context, Supplier<UUID> self, String nodeId, ClusterMeters meters, Runnable changed,
                  Supplier<String> ownAddresses, BiConsumer<String, String> heardAddresses, Clock clock) {
    this.again = new AskingAgain(vertx, context, changed);
    this.againLog = new LogLimiter(clock, 1_000_000_000L, PeerLog.LINES_PER_SECOND);
    this.nodeId = nodeId;
    this.ownAddresses = ownAddresses;
    this.heardAddresses = heardAddresses;
    this.vertx = vertx;
    this.context = context;
    this.self = self;
    this.meters = meters;
    this.changed = changed;
  }

  /** Answers other members' asks from now on. */
  Future<Void> start() {
    consumer = vertx.eventBus().consumer(ClusterAddress.admit(nodeId), this::onAsked);
    return consumer.completion();
  }

  Future<Void> stop() {
    return consumer == null ? Future.succeededFuture() : consumer.unregister();
  }

  /** Whether {@code member} proved itself (this node always has). */
  boolean admitted(Member member) {
    return member.localMember() || admitted.contains(member.getUuid().toString());
  }

  /**
   * Asks {@code member}, which says it is ready, to admit this node, unless it is admitted, being
   * asked, or was refused and its time to be asked again has not come (a refused member is admitted
   * still if it asks this node itself).
   */
  void ask(Member member) {
    String uuid = member.getUuid().toString();
    if (admitted.contains(uuid)) {
      return;
    }
    Refusal refusal = refused.get(uuid);
    if (refusal != null && refusal.askedAgain()) {
      if (again.takeDue(uuid)) {
        send(member, answer -> askedAgain(member, answer));
      }
      return;
    }
    if (refusal != null || asking.putIfAbsent(uuid, System.nanoTime() + WINDOW_MILLIS * 1_000_000) != null) {
      return;
    }
    send(member, answer -> askedFirst(member, answer));
  }

  /**
   * Whether an ask is still unanswered: a node that has not joined yet waits for them, or it
   * would take every partition of members it has not heard from yet.
   */
  boolean settling() {
    return !asking.isEmpty();
  }

  /** Refuses at once a member that cannot be a Sluice node (it lacks a node's attributes). */
  void refuse(Member member, String why) {
    refuse(member, new Refusal.NotANode(), why);
  }

  private void refuse(Member member, Refusal refusal, String why) {
    if (refused.putIfAbsent(member.getUuid().toString(), refusal) == null) {
      meters.refusedMember();
      LOG.log(System.Logger.Level.WARNING, "refusing cluster member " + member.getAddress() + " (" + member.getUuid()
          + "): " + why + "; it gets no partitions, no records and no requests");
    }
  }

  /** Forgets a member Hazelcast removed. */
  void forget(Member member) {
    String uuid = member.getUuid().toString();
    admitted.remove(uuid);
    asking.remove(uuid);
    context.runOnContext(v -> again.forget(uuid));
  }

  /** Asks {@code member} once; {@code then} takes what came of it, on the node's loop. */
  private void send(Member member, Consumer<AdmissionAnswer> then) {
    String uuid = member.getUuid().toString();
    vertx.eventBus().<JsonObject>request(ClusterAddress.admit(ClusterMembers.nodeIdOf(member)), introduction(),
        new DeliveryOptions().setSendTimeout(ASK_TIMEOUT_MILLIS))
        .onComplete(result -> context.runOnContext(v -> then.accept(answerOf(uuid, result))));
  }

  /** Takes an answer: whoever answered is admitted, whether or not it is the member asked. */
  private AdmissionAnswer answerOf(String asked, AsyncResult<Message<JsonObject>> result) {
    if (result.failed()) {
      Throwable cause = result.cause();
      return new AdmissionAnswer.NoAnswer(cause instanceof ReplyException reply
          ? reply.failureType() + ": " + reply.getMessage() : cause.toString());
    }
    String answered = heard(result.result().body());
    if (answered == null) {
      return new AdmissionAnswer.NoAnswer("an answer that names no member");
    }
    admitted.add(answered);
    refused.remove(answered);
    return asked.equals(answered) ? new AdmissionAnswer.Proved(answered) : new AdmissionAnswer.AnotherMember(answered);
  }

  /** An ask within the member's window: asked again until it closes, then refused. */
  private void askedFirst(Member member, AdmissionAnswer answer) {
    String uuid = member.getUuid().toString();
    if (answer.proved()) {
      // The ask settles even when the member was admitted meanwhile (it asked first): a node
      // that waits for its asks to settle before its first table must hear of it.
      asking.remove(uuid);
      changed.run();
      return;
    }
    Long deadline = asking.get(uuid);
    if (deadline == null) {
      return;
    }
    if (System.nanoTime() - deadline < 0) {
      vertx.setTimer(RETRY_MILLIS, id -> context.runOnContext(again -> {
        if (asking.containsKey(uuid)) {
          send(member, next -> askedFirst(member, next));
        }
      }));
      return;
    }
    asking.remove(uuid);
    if (!admitted.contains(uuid)) {
      refuse(member, new Refusal.Unproved(), "it proved no cluster credentials on the event bus within "
          + WINDOW_MILLIS / 1000 + " s (" + answer.why() + "); asked again from " + AskingAgain.FIRST_DELAY_MILLIS / 1000
          + " s, doubling to " + AskingAgain.MAX_DELAY_MILLIS / 1000 + " s, at most " + AskingAgain.MAX_ASKS + " times");
      again.schedule(uuid);
    }
    changed.run();
  }

  /** An ask of a member refused for asks that went unanswered. */
  private void askedAgain(Member member, AdmissionAnswer answer) {
    String uuid = member.getUuid().toString();
    int asks = again.asked(uuid);
    if (answer.proved()) {
      again.forget(uuid);
      againLog.log(LOG, System.Logger.Level.INFO, "cluster member " + member.getAddress() + " (" + uuid
          + ") proved its cluster credentials when asked again (ask " + asks + "): it takes part again");
      changed.run();
      return;
    }
    Refusal refusal = refused.get(uuid);
    if (admitted.contains(uuid) || refusal == null || !refusal.askedAgain()) {
      again.forget(uuid);
      return;
    }
    boolean scheduled = again.schedule(uuid);
    againLog.log(LOG, System.Logger.Level.INFO, "cluster member " + member.getAddress() + " (" + uuid
        + ") did not answer when asked again (ask " + asks + " of " + AskingAgain.MAX_ASKS + ": " + answer.why() + "); "
        + (scheduled ? "asked again in " + AskingAgain.delayMillis(asks) / 1000 + " s"
            : "not asked again: it stays refused unless it asks this node itself"));
  }

  private void onAsked(Message<JsonObject> message) {
    message.reply(introduction());
    context.runOnContext(v -> admit(heard(message.body())));
  }

  /** Who this node is, told only over the bus. */
  private JsonObject introduction() {
    return new JsonObject().put("member", self.get().toString()).put("node", nodeId).put("addresses", ownAddresses.get());
  }

  /** Takes what a member said of itself; returns its Hazelcast member UUID. */
  private String heard(JsonObject introduction) {
    String addresses = introduction.getString("addresses");
    if (addresses != null) {
      heardAddresses.accept(introduction.getString("node"), addresses);
    }
    return introduction.getString("member");
  }

  private void admit(String member) {
    if (member != null && admitted.add(member)) {
      refused.remove(member);
      again.forget(member);
      changed.run();
    }
  }
}
