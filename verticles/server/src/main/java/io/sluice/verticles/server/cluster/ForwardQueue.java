package io.sluice.verticles.server.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one front event loop forwards to one other node: at most one message in flight.
 *
 * <p>The batches gathered in a loop turn leave as one message at the end of the turn; while that
 * message is unanswered, every later batch for the node waits here, and they all leave as the next
 * message when the answer comes (the "smart batching" of Gubernator's peer batches and of a
 * Nagle-like sender, without a timer). So a message carries whatever arrived during one round trip:
 * a request at a time never waits, and the busier the path, the bigger the messages, however small
 * the clients' reads are. One message at a time also keeps the order of a connection's requests
 * (a connection lives on one loop): the owner spreads messages among its own loops, so two messages
 * in flight at once could run in either order there.
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

  private final Consumer<List<T>> send;
  private List<T> waiting = new ArrayList<>();
  private boolean inFlight;

  /** @param send sends one message; {@link #answered()} must follow once it is answered or failed */
  ForwardQueue(Consumer<List<T>> send) {
    this.send = send;
  }

  /** Queues a batch; a full message leaves at once when none is in flight. */
  void add(T batch) {
    waiting.add(batch);
    if (waiting.size() >= MAX_BATCHES) {
      sendIfIdle();
    }
  }

  /** At the end of a loop turn: sends what waits, unless a message is still in flight. */
  void sendIfIdle() {
    if (inFlight || waiting.isEmpty()) {
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
    inFlight = true;
    send.accept(message);
  }

  /** The message in flight is answered (or failed): what waited leaves now. */
  void answered() {
    inFlight = false;
    sendIfIdle();
  }

  /** True when nothing waits and nothing is in flight: the queue may be dropped. */
  boolean idle() {
    return !inFlight && waiting.isEmpty();
  }
}
