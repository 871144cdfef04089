package io.sluice.verticles.engine.channel;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who is subscribed to what, for the instance: the records behind PUBLISH's "anyone there?",
 * CHANNEL, CHANNELS and INFO. Messages themselves travel on the event bus, one address per channel;
 * this only keeps the books. Fronts on every event loop use it, hence the lock; it is held for
 * map operations only, never while delivering.
 */
public final class ChannelDirectory {

  private final Map<ChannelName, List<Subscription>> channels = new TreeMap<>();
  private long subscriptions;
  private final java.util.concurrent.atomic.LongAdder droppedPushes = new java.util.concurrent.atomic.LongAdder();

  /** A push not sent because its subscriber was not reading (the slow-consumer policy). */
  public void countDroppedPush() {
    droppedPushes.increment();
  }

  public long droppedPushes() {
    return droppedPushes.sum();
  }

  public synchronized Subscription subscribe(ChannelName channel, byte[] connectionId, long nowNanos) {
    Subscription subscription = new Subscription(connectionId.clone(), nowNanos);
    channels.computeIfAbsent(channel, name -> new ArrayList<>()).add(subscription);
    subscriptions++;
    return subscription;
  }

  /** Removes every record of this connection for the channel; returns how many there were. */
  public synchronized int unsubscribe(ChannelName channel, byte[] connectionId) {
    List<Subscription> records = channels.get(channel);
    if (records == null) {
      return 0;
    }
    int before = records.size();
    records.removeIf(subscription -> subscription.belongsTo(connectionId));
    int removed = before - records.size();
    subscriptions -= removed;
    if (records.isEmpty()) {
      channels.remove(channel);
    }
    return removed;
  }

  public synchronized int subscriptions(ChannelName channel) {
    List<Subscription> records = channels.get(channel);
    return records == null ? 0 : records.size();
  }

  /** CHANNEL: the subscription records of one channel, in the order they were made. */
  public synchronized List<SubscriberItem> subscribers(ChannelName channel) {
    List<SubscriberItem> items = new ArrayList<>();
    for (Subscription subscription : channels.getOrDefault(channel, List.of())) {
      items.add(new SubscriberItem(subscription.connectionId(), subscription.subscribedAtNanos(),
          subscription.payloadBytes(), 0));
    }
    return items;
  }

  /** CHANNELS: every channel by ascending byte value, with its payload bytes and subscription records. */
  public synchronized List<Listing.ChannelItem> channels() {
    List<Listing.ChannelItem> items = new ArrayList<>();
    channels.forEach((name, records) -> {
      long bytes = 0;
      for (Subscription subscription : records) {
        bytes += subscription.payloadBytes();
      }
      items.add(new Listing.ChannelItem(name.bytes(), bytes, 0, records.size()));
    });
    return items;
  }

  /**
   * The channels one connection is subscribed to, by ascending byte value, for the dashboard: a
   * walk of every record, fine for one connection's page, not for a hot path.
   */
  public synchronized List<ChannelName> channelsOf(byte[] connectionId) {
    List<ChannelName> names = new ArrayList<>();
    channels.forEach((name, records) -> {
      if (records.stream().anyMatch(subscription -> subscription.belongsTo(connectionId))) {
        names.add(name);
      }
    });
    return names;
  }

  public synchronized long totalSubscriptions() {
    return subscriptions;
  }

  public synchronized long totalChannels() {
    return channels.size();
  }
}
