package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelDirectory;
import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.Channels;
import io.sluice.verticles.engine.channel.Subscription;
import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.RecoveryMerge;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One connection's channels. A publish goes through the {@link ChannelFanOut} to every front's
 * loop on every node — TCP instances, the WebSocket bridge — where the {@link ChannelHub} of each
 * event loop hands it to its local subscription records (a double subscription is two records, so
 * two pushes). The {@link ChannelDirectory}
 * keeps the books for PUBLISH's answer, CHANNEL, CHANNELS and INFO.
 */
public final class EventBusChannels implements Channels, ChannelHub.Member {

  private final ChannelDirectory directory;
  private final ConnectionStats connection;
  private final byte[] connectionId;
  private final PushSink sink;
  private final Clock clock;
  private final ValueSize valueSize;
  private final ChannelHub hub;
  private final Map<ChannelName, List<Subscription>> records = new HashMap<>();
  /** The subscriptions that have had a numbered message, each delivering every offset once. */
  private final Map<Subscription, RecoveryMerge<ChannelMessage>> numbered = new IdentityHashMap<>();
  private final int maxSubscriptions;
  private int held;

  /** @param maxSubscriptions subscription records this connection may hold ({@code --max-subscriptions}) */
  public EventBusChannels(ChannelHub hub, ChannelDirectory directory, ConnectionStats connection,
                          PushSink sink, Clock clock, ValueSize valueSize, int maxSubscriptions) {
    this.maxSubscriptions = maxSubscriptions;
    this.hub = hub;
    this.directory = directory;
    this.connection = connection;
    this.connectionId = connection.id();
    this.sink = sink;
    this.clock = clock;
    this.valueSize = valueSize;
  }

  /** Every connection is subscribed to {@code *} and to its own ID as 32 hex characters (spec §7.4). */
  public void joinAutomaticChannels() {
    subscribe(new byte[] {'*'});
    subscribe(connection.idHex().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  /** {@inheritDoc} At most {@code maxSubscriptions} records, {@code *} and the connection's own ID included. */
  @Override
  public boolean subscribe(byte[] channel) {
    return add(new ChannelName(channel)) != null;
  }

  private Subscription add(ChannelName name) {
    if (held == maxSubscriptions) {
      return null;
    }
    held++;
    Subscription subscription = directory.subscribe(name, connectionId, clock.epochNanos());
    hub.add(name, this, subscription);
    records.computeIfAbsent(name, n -> new ArrayList<>()).add(subscription);
    return subscription;
  }

  /** {@inheritDoc} Once this loop's fan-out address is registered (or failed to be). */
  @Override
  public void whenHeardEverywhere(Runnable then) {
    hub.registered().onComplete(registered -> then.run());
  }

  /** Whether this connection is subscribed to {@code channel} (with one record or several). */
  public boolean holds(byte[] channel) {
    return records.containsKey(new ChannelName(channel));
  }

  /** The channels' history, or null when they keep none. */
  public ChannelHistories history() {
    return hub.history();
  }

  /**
   * Subscribes, holding the channel's live messages until {@link Recovering#recovered} is given
   * what the client missed: the subscription exists before the history is read, so a message
   * published meanwhile is either in that history or delivered live after it, once.
   *
   * @return null when the connection holds the most subscriptions it may
   */
  public Recovering subscribeRecovering(byte[] channel) {
    ChannelName name = new ChannelName(channel);
    Subscription subscription = add(name);
    if (subscription == null) {
      return null;
    }
    numbered.put(subscription, RecoveryMerge.holding(ChannelMessage::offset, ChannelMessage::epoch));
    return new Recovering(subscription, channel, hub.registered());
  }

  /**
   * A subscription waiting for its channel's history.
   *
   * @param registered completes once publishes from anywhere reach it: read the history after
   */
  public record Recovering(Subscription subscription, byte[] channel, io.vertx.core.Future<Void> registered) {
  }

  /**
   * Delivers what a recovering subscription missed, then the live messages held meanwhile, each
   * offset once; {@code missed} null (the history was out of reach) delivers the held ones alone.
   */
  public void recovered(Recovering recovering, ChannelHistory.Recovery missed) {
    RecoveryMerge<ChannelMessage> merge = numbered.get(recovering.subscription());
    if (merge == null || !merge.holding()) {
      return;
    }
    byte[] channel = recovering.channel();
    List<ChannelMessage> messages = missed == null ? List.of() : missed.messages().stream()
        .map(entry -> new ChannelMessage(channel, entry.payload(), ChannelMessage.NO_PUBLISHER, entry.offset(), missed.epoch()))
        .toList();
    merge.recovered(missed == null ? 0 : missed.epoch(), missed == null ? 0 : missed.top(), messages,
        message -> deliverNow(recovering.subscription(), message));
  }

  @Override
  public boolean unsubscribe(byte[] channel) {
    ChannelName name = new ChannelName(channel);
    List<Subscription> removed = records.remove(name);
    if (removed == null) {
      return false;
    }
    held -= removed.size();
    removed.forEach(numbered::remove);
    hub.removeAll(name, this);
    directory.unsubscribe(name, connectionId);
    return true;
  }

  /**
   * {@inheritDoc} A payload longer than a push frame's length field can announce is refused before
   * anyone gets it: Throttr subscribers could not be sent it, and the others alone must not be.
   * In a cluster this counts this node's subscribers only and always sends: use
   * {@link #publish(byte[], byte[], OtherNodes)} with the other nodes' counts.
   */
  @Override
  public int publish(byte[] channel, byte[] payload) {
    return publish(channel, payload, hub.clusterWide() ? OtherNodes.NOT_ASKED : OtherNodes.NONE);
  }

  /**
   * {@inheritDoc} The message goes on the event bus when anyone else may get it; the answer is -1
   * only when every node counted no subscriber.
   */
  @Override
  public int publish(byte[] channel, byte[] payload, OtherNodes others) {
    checkSize(payload);
    ChannelName name = new ChannelName(channel);
    int here = directory.subscriptions(name);
    ChannelHistories history = hub.history();
    if (history != null) {
      history.append(channel, payload, connectionId);
    }
    if (here == 0 && others.subscriptions() == 0 && others.complete()) {
      return -1;
    }
    List<Subscription> own = records.getOrDefault(name, List.of());
    own.forEach(subscription -> subscription.countDelivery(payload.length));
    if (history == null && (here > own.size() || others.subscriptions() > 0 || !others.complete())) {
      hub.fanOut().publish(new ChannelMessage(channel, payload, connectionId));
    }
    return own.size();
  }

  @Override
  public boolean spansNodes() {
    return hub.clusterWide();
  }

  /**
   * {@inheritDoc} A PUBLISH to a channel this node has subscribers of is answered 01 without
   * asking: the message goes to every node anyway, and the single node's speed is kept.
   */
  @Override
  public void askOtherNodes(List<Request> requests, Consumer<List<OtherNodes>> done) {
    List<Request> asked = new ArrayList<>(requests.size());
    for (Request request : requests) {
      if (!(request instanceof Request.Publish publish) || directory.subscriptions(new ChannelName(publish.channel())) == 0) {
        asked.add(request);
      }
    }
    if (asked.size() == requests.size()) {
      hub.askOtherNodes(requests, done);
      return;
    }
    hub.askOtherNodes(asked, answers -> {
      List<OtherNodes> all = new ArrayList<>(requests.size());
      int next = 0;
      for (Request request : requests) {
        all.add(next < asked.size() && asked.get(next) == request ? answers.get(next++) : OtherNodes.NOT_ASKED);
      }
      done.accept(all);
    });
  }

  @Override
  public List<SubscriberItem> subscribers(byte[] channel) {
    return directory.subscribers(new ChannelName(channel));
  }

  @Override
  public List<Listing.ChannelItem> channels() {
    return directory.channels();
  }

  /** Drops every subscription of a closed connection. */
  public void leaveAll() {
    records.keySet().forEach(name -> {
      hub.removeAll(name, this);
      directory.unsubscribe(name, connectionId);
    });
    records.clear();
    numbered.clear();
  }

  @Override
  public byte[] connectionId() {
    return connectionId;
  }

  private void checkSize(byte[] payload) {
    if (!valueSize.fits(payload.length)) {
      throw new IllegalArgumentException("a message is at most " + valueSize.max() + " bytes with value size "
          + valueSize.label() + ", this one has " + payload.length);
    }
  }

  /**
   * Publishes to a channel with history, the publisher's own subscriptions included: they get the
   * message with its offset through the hub, like every other subscriber. Completes once the
   * channel's owner has numbered it.
   */
  public java.util.concurrent.CompletionStage<HistoryAppend> publishNumbered(byte[] channel, byte[] payload) {
    checkSize(payload);
    return hub.history().append(channel, payload, ChannelMessage.NO_PUBLISHER);
  }

  /**
   * Called by the hub for messages of other publishers (this connection pushed its own already).
   * A numbered message goes through its subscription's merge: held during a recovery, dropped when
   * its offset was delivered already.
   */
  @Override
  public void deliver(Subscription subscription, ChannelMessage message) {
    if (message.kept()) {
      numbered.computeIfAbsent(subscription, s -> RecoveryMerge.passing(ChannelMessage::offset, ChannelMessage::epoch))
          .live(message, numberedMessage -> deliverNow(subscription, numberedMessage));
      return;
    }
    deliverNow(subscription, message);
  }

  private void deliverNow(Subscription subscription, ChannelMessage message) {
    if (sink.push(message)) {
      connection.addReceivedBytes(message.payload().length);
    } else {
      connection.countDroppedPush();
      directory.countDroppedPush();
    }
    // Counted last: whoever sees a delivery in the subscription's bytes (CHANNEL, the dashboard) sees
    // it handled, pushed or dropped, in the connection's figures too. Still before the client can see
    // the push: its flush waits for the end of this loop turn (PushFlushes).
    subscription.countDelivery(message.payload().length);
  }
}
