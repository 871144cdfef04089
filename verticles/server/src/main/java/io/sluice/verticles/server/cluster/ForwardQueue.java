package io.sluice.verticles.server.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one front event loop forwards to one other node: at most {@link #WINDOW} messages in flight.
 *
 * <p>The batches gathered in a loop turn leave as one message at the end of the turn; while the
 * window is full, every later batch for the node waits here, and they all leave as the next message
 * when an answer comes (the "smart batching" of Gubernator's peer batches and of a Nagle-like
 * sender, without a timer). So a message carries whatever arrived during a round trip: a request at
 * a time never waits, and the busier the path, the bigger the messages, however small the clients'
 * reads are. A window of one made the path serial: the owner ran a message while this node waited,
 * then this node answered its clients and gathered the next while the owner waited (each node's
 * loop about a third busy at 4 connections x 64 pipelined); with two, each node works on one message
 * while the other works on the next. Order is kept by the owner: every message of this queue goes
 * to the same one of its inboxes ({@link WorkInbox#ADDRESSES}), which runs them in the order sent.
 *
 * <p>A message carries at most {@link #MAX_BATCHES} batches (the wire counts them in an unsigned
 * short); the rest go in the next. Memory is bounded by the sessions, which stop reading while
 * their requests wait. Used only from its loop.
 *
 * @param <T> a batch waiting for its owner, with its callbacks
 */
final class ForwardQueue<T> {

  /** The batches of one message at most. */
  static final int MAX_BATCHES = 1024;

  /** Messages in flight at most: two keep both nodes busy, more would only cut the messages smaller. */
  static final int WINDOW = 2;

  private final Consumer<List<T>> send;
  private List<T> waiting = new ArrayList<>();
  /** Messages sent and not yet answered. */
  private int inFlight;

  /** @param send sends one message; {@link #answered()} must follow once it is answered or failed */
  ForwardQueue(Consumer<List<T>> send) {
    this.send = send;
  }

  /** Queues a batch; a full message leaves at once when the window has room. */
  void add(T batch) {
    waiting.add(batch);
    if (waiting.size() >= MAX_BATCHES) {
      sendIfIdle();
    }
  }

  /** At the end of a loop turn: sends what waits, unless the window is full. */
  void sendIfIdle() {
    if (inFlight >= WINDOW || waiting.isEmpty()) {
      return;
    }
    List<T> message;
    if (waiting.size() <= MAX_BATCHES) {
      message = waiting;
      waiting = new ArrayList<>();
    } else {
      message = new ArrayList<>(waiting.subList(0, MAX_BATCHES));
      waiting.subList(0, MAX_BATCHES).clear();
    }
    inFlight++;
    send.accept(message);
  }

  /** A message in flight is answered (or failed): what waited leaves now. */
  void answered() {
    inFlight--;
    sendIfIdle();
  }

  /** True when nothing waits and nothing is in flight: the queue may be dropped. */
  boolean idle() {
    return inFlight == 0 && waiting.isEmpty();
  }
}
