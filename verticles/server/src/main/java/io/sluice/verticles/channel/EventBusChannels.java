package io.sluice.verticles.channel;

import io.sluice.core.channel.ChannelDirectory;
import io.sluice.core.channel.ChannelName;
import io.sluice.core.channel.Channels;
import io.sluice.core.channel.Subscription;
import io.sluice.core.instance.ConnectionStats;
import io.sluice.core.time.Clock;
import io.sluice.throttr.codec.Listing;
import io.sluice.throttr.codec.SubscriberItem;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One connection's channels, as event-bus consumers: each subscription record is one consumer on
 * the channel's address (so a double subscription gets every message twice), registered on the
 * connection's own event loop. A publish is one event-bus publish that reaches every front — TCP
 * instances on all loops, the WebSocket bridge, and later other cluster nodes. The
 * {@link ChannelDirectory} keeps the books for PUBLISH's answer, CHANNEL, CHANNELS and INFO.
 */
public final class EventBusChannels implements Channels {

  private final EventBus eventBus;
  private final ChannelDirectory directory;
  private final ConnectionStats connection;
  private final byte[] connectionId;
  private final PushSink sink;
  private final Clock clock;
  private final Map<ChannelName, List<MessageConsumer<ChannelMessage>>> consumers = new HashMap<>();
  private final Map<ChannelName, List<Subscription>> records = new HashMap<>();

  public EventBusChannels(EventBus eventBus, ChannelDirectory directory, ConnectionStats connection, PushSink sink,
                          Clock clock) {
    this.eventBus = eventBus;
    this.directory = directory;
    this.connection = connection;
    this.connectionId = connection.id();
    this.sink = sink;
    this.clock = clock;
  }

  /** Every connection is subscribed to {@code *} and to its own ID as 32 hex characters (spec §7.4). */
  public void joinAutomaticChannels() {
    subscribe(new byte[] {'*'});
    subscribe(connection.idHex().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }

  @Override
  public void subscribe(byte[] channel) {
    ChannelName name = new ChannelName(channel);
    Subscription subscription = directory.subscribe(name, connectionId, clock.epochNanos());
    MessageConsumer<ChannelMessage> consumer = eventBus.consumer(name.address(),
        message -> deliver(subscription, message.body()));
    consumers.computeIfAbsent(name, n -> new ArrayList<>()).add(consumer);
    records.computeIfAbsent(name, n -> new ArrayList<>()).add(subscription);
  }

  @Override
  public boolean unsubscribe(byte[] channel) {
    ChannelName name = new ChannelName(channel);
    List<MessageConsumer<ChannelMessage>> mine = consumers.remove(name);
    if (mine == null) {
      return false;
    }
    records.remove(name);
    mine.forEach(MessageConsumer::unregister);
    directory.unsubscribe(name, connectionId);
    return true;
  }

  @Override
  public int publish(byte[] channel, byte[] payload) {
    ChannelName name = new ChannelName(channel);
    int everyone = directory.subscriptions(name);
    if (everyone == 0) {
      return -1;
    }
    List<Subscription> own = records.getOrDefault(name, List.of());
    own.forEach(subscription -> subscription.countDelivery(payload.length));
    if (everyone > own.size()) {
      eventBus.publish(name.address(), new ChannelMessage(channel, payload, connectionId));
    }
    return own.size();
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
    consumers.values().forEach(list -> list.forEach(MessageConsumer::unregister));
    consumers.keySet().forEach(name -> directory.unsubscribe(name, connectionId));
    consumers.clear();
    records.clear();
  }

  private void deliver(Subscription subscription, ChannelMessage message) {
    if (Arrays.equals(message.publisherId(), connectionId)) {
      return;
    }
    subscription.countDelivery(message.payload().length);
    if (sink.push(message.channel(), message.payload())) {
      connection.addReceivedBytes(message.payload().length);
    } else {
      connection.countDroppedPush();
      directory.countDroppedPush();
    }
  }
}
