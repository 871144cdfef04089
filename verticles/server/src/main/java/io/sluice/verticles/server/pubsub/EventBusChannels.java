package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.engine.channel.ChannelDirectory;
import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.Channels;
import io.sluice.verticles.engine.channel.Subscription;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.protocol.binary.codec.ValueSize;
import io.vertx.core.eventbus.EventBus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One connection's channels. A publish is one event-bus publish on the channel's address, which
 * reaches every front — TCP instances on all loops, the WebSocket bridge, later other cluster
 * nodes — where the {@link ChannelHub} of each event loop hands it to its local subscription
 * records (a double subscription is two records, so two pushes). The {@link ChannelDirectory}
 * keeps the books for PUBLISH's answer, CHANNEL, CHANNELS and INFO.
 */
public final class EventBusChannels implements Channels, ChannelHub.Member {

  private final EventBus eventBus;
  private final ChannelDirectory directory;
  private final ConnectionStats connection;
  private final byte[] connectionId;
  private final PushSink sink;
  private final Clock clock;
  private final ValueSize valueSize;
  private final ChannelHub hub;
  private final Map<ChannelName, List<Subscription>> records = new HashMap<>();
  private final int maxSubscriptions;
  private int held;

  /** @param maxSubscriptions subscription records this connection may hold ({@code --max-subscriptions}) */
  public EventBusChannels(ChannelHub hub, ChannelDirectory directory, ConnectionStats connection,
                          PushSink sink, Clock clock, ValueSize valueSize, int maxSubscriptions) {
    this.maxSubscriptions = maxSubscriptions;
    this.eventBus = hub.eventBus();
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
    if (held == maxSubscriptions) {
      return false;
    }
    held++;
    ChannelName name = new ChannelName(channel);
    Subscription subscription = directory.subscribe(name, connectionId, clock.epochNanos());
    hub.add(name, this, subscription);
    records.computeIfAbsent(name, n -> new ArrayList<>()).add(subscription);
    return true;
  }

  @Override
  public boolean unsubscribe(byte[] channel) {
    ChannelName name = new ChannelName(channel);
    List<Subscription> removed = records.remove(name);
    if (removed == null) {
      return false;
    }
    held -= removed.size();
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
    if (!valueSize.fits(payload.length)) {
      throw new IllegalArgumentException("a message is at most " + valueSize.max() + " bytes with value size "
          + valueSize.label() + ", this one has " + payload.length);
    }
    ChannelName name = new ChannelName(channel);
    int here = directory.subscriptions(name);
    if (here == 0 && others.subscriptions() == 0 && others.complete()) {
      return -1;
    }
    List<Subscription> own = records.getOrDefault(name, List.of());
    own.forEach(subscription -> subscription.countDelivery(payload.length));
    if (here > own.size() || others.subscriptions() > 0 || !others.complete()) {
      eventBus.publish(name.address(), new ChannelMessage(channel, payload, connectionId));
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
  }

  @Override
  public byte[] connectionId() {
    return connectionId;
  }

  /** Called by the hub for messages of other publishers (this connection pushed its own already). */
  @Override
  public void deliver(Subscription subscription, ChannelMessage message) {
    subscription.countDelivery(message.payload().length);
    if (sink.push(message)) {
      connection.addReceivedBytes(message.payload().length);
    } else {
      connection.countDroppedPush();
      directory.countDroppedPush();
    }
  }
}
