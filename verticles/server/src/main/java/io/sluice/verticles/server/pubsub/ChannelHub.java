package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.Subscription;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The channels of one front verticle instance (one event loop): ONE event-bus consumer, at its
 * node's {@link ChannelFanOut} address, handing each channel's messages to the loop's subscription
 * records of that channel. A message to 1,000 subscribers spread over two event loops is then two
 * event-bus deliveries, not a thousand, and subscribing registers nothing on the event bus.
 * Used only from its own event loop.
 */
public final class ChannelHub {

  private final Map<ChannelName, LocalChannel> channels = new HashMap<>();

  /** A connection's side of the hub: its ID and where its pushes go. */
  interface Member {
    byte[] connectionId();

    void deliver(Subscription subscription, ChannelMessage message);
  }

  private record Entry(Member member, Subscription subscription) {
  }

  private final class LocalChannel {
    final List<Entry> entries = new ArrayList<>();

    /** Subscriptions made during delivery take effect from the next message (copy of the list). */
    void fanOut(ChannelMessage message) {
      for (Entry entry : entries.toArray(new Entry[0])) {
        if (!Arrays.equals(entry.member.connectionId(), message.publisherId())) {
          entry.member.deliver(entry.subscription, message);
        }
      }
    }
  }

  private final Vertx vertx;
  private final ChannelCensus census;
  private final ChannelFanOut fanOut;
  private final io.vertx.core.Future<Void> listening;
  private ChannelHistories history;

  /** A single node's hub. */
  public ChannelHub(Vertx vertx) {
    this(vertx, null);
  }

  /**
   * Call on the hub's event loop.
   *
   * @param census the other nodes' subscribers, or null on a single node; this loop then answers
   *               their questions about this node's subscribers too
   */
  public ChannelHub(Vertx vertx, ChannelCensus census) {
    this.vertx = vertx;
    this.census = census;
    this.fanOut = ChannelFanOut.messages(vertx);
    this.listening = fanOut.listen(message -> {
      LocalChannel channel = channels.get(new ChannelName(message.channel()));
      if (channel != null) {
        channel.fanOut(message);
      }
    });
    if (census != null) {
      census.answerOn(vertx);
    }
  }

  /** How this hub's connections publish: to every node's loops. */
  public ChannelFanOut fanOut() {
    return fanOut;
  }

  /** From now on every publish through this hub is numbered and kept by {@code history}'s owners. */
  public ChannelHub keepHistory(ChannelHistories history) {
    this.history = history;
    return this;
  }

  /** The channels' history, or null when channels keep none ({@code --channel-history 0}). */
  ChannelHistories history() {
    return history;
  }

  /**
   * Completes once this loop hears its channels from every node: once its one consumer is
   * registered (at its start; in a cluster, once the other nodes can know of it). A subscription
   * is heard from then on as soon as it is made: a recovery reads the history only then.
   */
  io.vertx.core.Future<Void> registered() {
    return listening;
  }

  /** True when subscribers may be on other nodes too (a cluster). */
  boolean clusterWide() {
    return census != null;
  }

  /** Asks the other nodes of the cluster their part of these channel requests; see {@link ChannelCensus#ask}. */
  void askOtherNodes(List<Request> requests, Consumer<List<OtherNodes>> done) {
    census.ask(vertx, requests, done);
  }

  void add(ChannelName name, Member member, Subscription subscription) {
    channels.computeIfAbsent(name, n -> new LocalChannel()).entries.add(new Entry(member, subscription));
  }

  void removeAll(ChannelName name, Member member) {
    LocalChannel channel = channels.get(name);
    if (channel == null) {
      return;
    }
    channel.entries.removeIf(entry -> entry.member == member);
    if (channel.entries.isEmpty()) {
      channels.remove(name);
    }
  }
}
