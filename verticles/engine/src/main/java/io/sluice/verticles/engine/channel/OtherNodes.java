package io.sluice.verticles.engine.channel;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the other nodes of a cluster hold for one PUBLISH, CHANNEL or CHANNELS request, gathered
 * before this node answers it, and how it joins this node's part. Counters merge by channel:
 * subscription records and payload bytes are summed over the nodes (each node counts the bytes its
 * own subscribers were sent, so no byte is counted twice); subscribers are listed all together in
 * the order they subscribed.
 *
 * @param subscriptions the other nodes' subscription records of the channel (PUBLISH)
 * @param subscribers   their subscription records of the channel (CHANNEL)
 * @param channels      their channels (CHANNELS), by ascending byte value
 * @param complete      false when a node was not asked or did not answer: it may have subscribers
 */
public record OtherNodes(long subscriptions, List<SubscriberItem> subscribers, List<Listing.ChannelItem> channels,
                         boolean complete) {

  /** Nothing counted, nobody left out: what a node without others holds. */
  public static final OtherNodes NONE = new OtherNodes(0, List.of(), List.of(), true);

  /** Nobody was asked (PUBLISH to a channel this node has subscribers of): the others may have some too. */
  public static final OtherNodes NOT_ASKED = new OtherNodes(0, List.of(), List.of(), false);

  /** Two nodes' parts together. */
  public OtherNodes and(OtherNodes more) {
    List<SubscriberItem> allSubscribers = new ArrayList<>(subscribers);
    allSubscribers.addAll(more.subscribers);
    return new OtherNodes(subscriptions + more.subscriptions, allSubscribers, mergeChannels(channels, more.channels),
        complete && more.complete);
  }

  /** CHANNEL: this node's records and the others', in the order they were made. */
  public List<SubscriberItem> withSubscribers(List<SubscriberItem> local) {
    List<SubscriberItem> all = new ArrayList<>(local);
    all.addAll(subscribers);
    // Stable: records made at the same nanosecond keep this node's first.
    all.sort(Comparator.comparingLong(SubscriberItem::subscribedAtNanos));
    return all;
  }

  /** CHANNELS: this node's channels and the others', each channel once with its counters summed. */
  public List<Listing.ChannelItem> withChannels(List<Listing.ChannelItem> local) {
    return mergeChannels(local, channels);
  }

  private static List<Listing.ChannelItem> mergeChannels(List<Listing.ChannelItem> a, List<Listing.ChannelItem> b) {
    if (b.isEmpty()) {
      return a;
    }
    Map<ChannelName, Listing.ChannelItem> merged = new TreeMap<>();
    for (List<Listing.ChannelItem> part : List.of(a, b)) {
      for (Listing.ChannelItem item : part) {
        merged.merge(new ChannelName(item.channel()), item, (x, y) -> new Listing.ChannelItem(x.channel(),
            x.readBytes() + y.readBytes(), x.writeBytes() + y.writeBytes(), x.subscriptions() + y.subscriptions()));
      }
    }
    return new ArrayList<>(merged.values());
  }
}
