package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.Subscription;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The channels of one front verticle instance (one event loop): ONE event-bus consumer per channel
 * that any of its connections subscribes to, fanning each message out to its local subscription
 * records. A message to 1,000 subscribers spread over two event loops is then two event-bus
 * deliveries, not a thousand, and a cluster sees one registration per loop and channel.
 * Used only from its own event loop.
 */
public final class ChannelHub {

  private final EventBus eventBus;
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
    final MessageConsumer<ChannelMessage> consumer;

    LocalChannel(ChannelName name) {
      consumer = eventBus.consumer(name.address(), message -> fanOut(message.body()));
    }

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
    this.eventBus = vertx.eventBus();
    this.census = census;
    if (census != null) {
      census.answerOn(vertx);
    }
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
   * Completes once this loop hears {@code name} everywhere it can be published from (in a cluster,
   * once the other nodes know of the registration): a recovery reads the history only then.
   */
  io.vertx.core.Future<Void> registered(ChannelName name) {
    LocalChannel channel = channels.get(name);
    return channel == null ? io.vertx.core.Future.succeededFuture() : channel.consumer.completion();
  }

  /** True when subscribers may be on other nodes too (a cluster). */
  boolean clusterWide() {
    return census != null;
  }

  /** Asks the other nodes of the cluster their part of these channel requests; see {@link ChannelCensus#ask}. */
  void askOtherNodes(List<Request> requests, Consumer<List<OtherNodes>> done) {
    census.ask(vertx, requests, done);
  }

  EventBus eventBus() {
    return eventBus;
  }

  void add(ChannelName name, Member member, Subscription subscription) {
    channels.computeIfAbsent(name, LocalChannel::new).entries.add(new Entry(member, subscription));
  }

  void removeAll(ChannelName name, Member member) {
    LocalChannel channel = channels.get(name);
    if (channel == null) {
      return;
    }
    channel.entries.removeIf(entry -> entry.member == member);
    if (channel.entries.isEmpty()) {
      channel.consumer.unregister();
      channels.remove(name);
    }
  }
}
