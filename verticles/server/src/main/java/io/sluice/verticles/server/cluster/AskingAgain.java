package io.sluice.verticles.server.cluster;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * When to ask again the members refused for asks that went unanswered ({@link Refusal.Unproved}):
 * after {@link #FIRST_DELAY_MILLIS}, doubling up to {@link #MAX_DELAY_MILLIS}, at most
 * {@link #MAX_ASKS} times. A member whose time came is only marked due, and {@code due} runs: it
 * is asked when the members are counted next and only if Hazelcast still lists it and it says it
 * is ready. A genuine member whose answers were lost once must not stay out of this node's count
 * for good; one without the credentials costs a failed handshake per ask, a bounded number. Used
 * on the node's loop only.
 */
final class AskingAgain {

  static final long FIRST_DELAY_MILLIS = 1_000;
  static final long MAX_DELAY_MILLIS = 30_000;
  static final int MAX_ASKS = 20;

  private final Vertx vertx;
  private final Context context;
  private final Runnable due;
  /** The asks made again so far, per member UUID. */
  private final Map<String, Integer> asked = new HashMap<>();
  private final Set<String> dueNow = new HashSet<>();

  /** @param due runs on {@code context} when a member's time to be asked again came */
  AskingAgain(Vertx vertx, Context context, Runnable due) {
    this.vertx = vertx;
    this.context = context;
    this.due = due;
  }

  /** The delay before the ask that follows {@code asksMade} asks made again. */
  static long delayMillis(int asksMade) {
    return Math.min(MAX_DELAY_MILLIS, FIRST_DELAY_MILLIS << Math.min(asksMade, 16));
  }

  /**
   * Schedules the next ask of {@code member}; returns false, scheduling nothing, once it was asked
   * again {@link #MAX_ASKS} times.
   */
  boolean schedule(String member) {
    int made = asked.getOrDefault(member, 0);
    if (made >= MAX_ASKS) {
      return false;
    }
    asked.put(member, made);
    vertx.setTimer(delayMillis(made), id -> context.runOnContext(v -> {
      if (asked.containsKey(member)) {
        dueNow.add(member);
        due.run();
      }
    }));
    return true;
  }

  /** Whether {@code member}'s time to be asked again came; if so, counts the ask. */
  boolean takeDue(String member) {
    if (!dueNow.remove(member)) {
      return false;
    }
    asked.merge(member, 1, Integer::sum);
    return true;
  }

  /** How many times {@code member} was asked again. */
  int asked(String member) {
    return asked.getOrDefault(member, 0);
  }

  /** Stops asking {@code member} again: it was admitted, or Hazelcast removed it. */
  void forget(String member) {
    asked.remove(member);
    dueNow.remove(member);
  }
}
