package io.sluice.verticles.server.bus;

import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Asks every other member of the cluster one question over the event bus and hands each answer to
 * its reader, for a census that has no shared store: who the members are is the cluster manager's
 * list, so a node that is gone is not asked. A member with no one answering at its address (still
 * starting, or just gone) has nothing to tell and is skipped; one that fails, does not answer
 * within {@value #TIMEOUT_MILLIS} ms, or answers what cannot be read is left out, with a log line
 * limited to one per {@value #LOG_EVERY_SECONDS} s (a member down can fail every question).
 */
public final class EveryMember {

  /** How long a node waits for another's answer before leaving it out. */
  public static final long TIMEOUT_MILLIS = 2_000;
  private static final long LOG_EVERY_SECONDS = 10;

  private final ClusterManager cluster;
  private final System.Logger log;
  private final String answer;
  private final LogLimiter unanswered;
  private final DeliveryOptions options = new DeliveryOptions().setSendTimeout(TIMEOUT_MILLIS);

  /**
   * @param log    the census's own logger, where the left-out members are told
   * @param answer what a left-out member is missing from, for the log line ("a channel answer")
   */
  public EveryMember(Vertx vertx, Clock clock, System.Logger log, String answer) {
    this.cluster = ((VertxInternal) vertx).clusterManager();
    this.log = log;
    this.answer = answer;
    this.unanswered = new LogLimiter(clock, LOG_EVERY_SECONDS * 1_000_000_000L);
  }

  /** Whether this Vert.x is a member of a cluster at all. */
  public boolean clustered() {
    return cluster != null;
  }

  /** This member's id in the cluster; only when {@link #clustered()}. */
  public String self() {
    return cluster.getNodeId();
  }

  /**
   * Sends the question to every other member, at {@code address} of its id, and gives each answer
   * to {@code read} (which throws if it cannot read it) on the caller's event loop. A member left
   * out calls {@code leftOut} instead. {@code done} runs once every member is answered for: at
   * once, without asking for the question, when there is no other member.
   */
  public <Q, A> void ask(Vertx vertx, Function<String, String> address, Supplier<Q> question, Consumer<A> read,
                         Runnable leftOut, Runnable done) {
    List<String> others = new ArrayList<>();
    if (cluster != null) {
      others.addAll(cluster.getNodes());
      others.remove(cluster.getNodeId());
    }
    if (others.isEmpty()) {
      done.run();
      return;
    }
    Q asked = question.get();
    int[] waiting = {others.size()};
    for (String node : others) {
      vertx.eventBus().<A>request(address.apply(node), asked, options).onComplete(reply -> {
        try {
          if (reply.succeeded()) {
            read.accept(reply.result().body());
          } else if (!(reply.cause() instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS)) {
            leaveOut(node, leftOut, reply.cause());
          }
        } catch (RuntimeException unreadable) {
          leaveOut(node, leftOut, unreadable);
        }
        if (--waiting[0] == 0) {
          done.run();
        }
      });
    }
  }

  private void leaveOut(String node, Runnable leftOut, Throwable why) {
    unanswered.log(log, System.Logger.Level.WARNING, "node " + node + " is left out of " + answer + ": "
        + LogText.failure(why));
    leftOut.run();
  }
}
