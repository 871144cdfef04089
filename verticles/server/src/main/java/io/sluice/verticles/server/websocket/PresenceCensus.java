package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.PresencePart;
import io.sluice.verticles.engine.channel.PresenceRegistry;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.bus.EveryMember;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Presence across the cluster, as Centrifugo keeps it without a shared store: each node answers,
 * at {@link #address}, who is present on it (its {@link PresenceRegistry}); a query asks every
 * member the cluster manager lists and merges their parts with its own. A node that is gone is not
 * listed, so its members drop out of the answers at once; one that does not answer within
 * {@value EveryMember#TIMEOUT_MILLIS} ms is left out, logged, and the answer says it is not complete.
 */
final class PresenceCensus {

  private static final System.Logger LOG = System.getLogger(PresenceCensus.class.getName());
  /** The most users one answer lists, and each node sends: the earliest to join. */
  static final int MAX_USERS = 1000;
  private static final int UNREADABLE = 400;

  private final EveryMember members;
  private final PresenceRegistry registry;

  private PresenceCensus(EveryMember members, PresenceRegistry registry) {
    this.members = members;
    this.registry = registry;
  }

  /** Call on a front's event loop: in a cluster that loop answers the other nodes' queries too. */
  static PresenceCensus on(Vertx vertx, PresenceRegistry registry, Clock clock) {
    EveryMember members = new EveryMember(vertx, clock, LOG, "a presence answer");
    PresenceCensus census = new PresenceCensus(members, registry);
    if (members.clustered()) {
      vertx.eventBus().<JsonObject>consumer(address(members.self()), census::answer);
    }
    return census;
  }

  static String address(String node) {
    return "sluice.cluster.presence." + node;
  }

  private void answer(Message<JsonObject> query) {
    String channel;
    try {
      channel = query.body().getString("channel");
      if (channel == null) {
        throw new IllegalArgumentException("no channel");
      }
    } catch (RuntimeException unreadable) {
      query.fail(UNREADABLE, "a presence query names a channel: " + unreadable);
      return;
    }
    query.reply(PresenceJson.of(local(channel)));
  }

  private PresencePart local(String channel) {
    return registry.part(new ChannelName(channel.getBytes(StandardCharsets.UTF_8)), MAX_USERS);
  }

  /** Who is present in {@code channel} on every node that answers; never fails. */
  Future<PresencePart> ask(Vertx vertx, String channel) {
    List<PresencePart> parts = new ArrayList<>();
    parts.add(local(channel));
    Promise<PresencePart> merged = Promise.promise();
    members.<JsonObject, JsonObject>ask(vertx, PresenceCensus::address, () -> new JsonObject().put("channel", channel),
        answer -> parts.add(PresenceJson.read(answer, MAX_USERS)),
        () -> parts.add(PresencePart.EMPTY.incomplete()),
        () -> merged.complete(PresencePart.merge(parts, MAX_USERS)));
    return merged.future();
  }
}
