package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.PresencePart;
import io.sluice.verticles.engine.channel.PresenceRegistry;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Presence across the cluster, as Centrifugo keeps it without a shared store: each node answers,
 * at {@link #address}, who is present on it (its {@link PresenceRegistry}); a query asks every
 * member the cluster manager lists and merges their parts with its own. A node that is gone is not
 * listed, so its members drop out of the answers at once; one that does not answer within
 * {@value #TIMEOUT_MILLIS} ms is left out, logged, and the answer says it is not complete.
 */
final class PresenceCensus {

  private static final System.Logger LOG = System.getLogger(PresenceCensus.class.getName());
  /** The most users one answer lists, and each node sends: the earliest to join. */
  static final int MAX_USERS = 1000;
  static final long TIMEOUT_MILLIS = 2_000;
  private static final int UNREADABLE = 400;

  private final ClusterManager cluster;
  private final PresenceRegistry registry;
  private final LogLimiter unanswered;
  private final DeliveryOptions options = new DeliveryOptions().setSendTimeout(TIMEOUT_MILLIS);

  /** @param cluster the cluster manager, or null on a single node */
  private PresenceCensus(ClusterManager cluster, PresenceRegistry registry, Clock clock) {
    this.cluster = cluster;
    this.registry = registry;
    this.unanswered = new LogLimiter(clock, 10_000_000_000L);
  }

  /** Call on a front's event loop: in a cluster that loop answers the other nodes' queries too. */
  static PresenceCensus on(Vertx vertx, PresenceRegistry registry, Clock clock) {
    PresenceCensus census = new PresenceCensus(((VertxInternal) vertx).clusterManager(), registry, clock);
    if (census.cluster != null) {
      vertx.eventBus().<JsonObject>consumer(address(census.cluster.getNodeId()), census::answer);
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
    List<String> others = new ArrayList<>();
    if (cluster != null) {
      others.addAll(cluster.getNodes());
      others.remove(cluster.getNodeId());
    }
    if (others.isEmpty()) {
      return Future.succeededFuture(PresencePart.merge(parts, MAX_USERS));
    }
    Promise<PresencePart> merged = Promise.promise();
    JsonObject query = new JsonObject().put("channel", channel);
    int[] waiting = {others.size()};
    for (String node : others) {
      vertx.eventBus().<JsonObject>request(address(node), query, options).onComplete(reply -> {
        if (reply.succeeded()) {
          try {
            parts.add(PresenceJson.read(reply.result().body(), MAX_USERS));
          } catch (RuntimeException unreadable) {
            leaveOut(node, parts, unreadable);
          }
        } else if (!(reply.cause() instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS)) {
          leaveOut(node, parts, reply.cause());
        }
        if (--waiting[0] == 0) {
          merged.complete(PresencePart.merge(parts, MAX_USERS));
        }
      });
    }
    return merged.future();
  }

  /** A node still starting (no one answering yet) has nobody present; one that fails to answer may. */
  private void leaveOut(String node, List<PresencePart> parts, Throwable why) {
    unanswered.log(LOG, System.Logger.Level.WARNING, "node " + node + " is left out of a presence answer: "
        + LogText.failure(why));
    parts.add(PresencePart.EMPTY.incomplete());
  }
}
