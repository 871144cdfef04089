package io.sluice.verticles.engine.channel;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;

import io.sluice.protocol.binary.codec.Request;

import java.util.List;
import java.util.function.Consumer;

/** The channel operations one connection can perform; a front implements them over its messaging. */
public interface Channels {

  /**
   * Adds one subscription record (subscribing twice gives two, and two pushes per message); false,
   * and nothing added, when the connection already holds as many as it may.
   */
  boolean subscribe(byte[] channel);

  /** Removes all of this connection's records for the channel; false when it had none. */
  boolean unsubscribe(byte[] channel);

  /**
   * Sends a message to every subscription record of the channel. Returns how many of those records
   * are this connection's own (the caller pushes those itself, before its status byte, as Throttr
   * clients expect), or -1 when the channel has no subscriber at all.
   *
   * @throws IllegalArgumentException when the payload is longer than the value size lets a push
   *                                  frame carry; nothing is delivered then
   */
  int publish(byte[] channel, byte[] payload);

  List<SubscriberItem> subscribers(byte[] channel);

  List<Listing.ChannelItem> channels();

  /**
   * True when subscribers may be on other nodes too (a cluster): PUBLISH, CHANNEL and CHANNELS then
   * ask them first ({@link #askOtherNodes}) and are answered with their parts.
   */
  default boolean spansNodes() {
    return false;
  }

  /**
   * Asks the other nodes their part of these requests (each a PUBLISH, CHANNEL or CHANNELS), once
   * per node for all of them. {@code done} gets one answer per request, in order, on the caller's
   * thread: at once when nobody needs asking, later otherwise.
   */
  default void askOtherNodes(List<Request> requests, Consumer<List<OtherNodes>> done) {
    done.accept(requests.stream().map(request -> OtherNodes.NONE).toList());
  }

  /**
   * Runs {@code then} on the caller's thread once a message published on any node reaches every
   * subscription this connection holds: at once on a single node; in a cluster once the other
   * nodes can send to this connection's event loop (from shortly after its start on).
   */
  default void whenHeardEverywhere(Runnable then) {
    then.run();
  }

  /** {@link #publish(byte[], byte[])} counting the other nodes' subscribers too. */
  default int publish(byte[] channel, byte[] payload, OtherNodes others) {
    return publish(channel, payload);
  }

  /** CHANNEL over every node: this node's records and the others'. */
  default List<SubscriberItem> subscribers(byte[] channel, OtherNodes others) {
    return others.withSubscribers(subscribers(channel));
  }

  /** CHANNELS over every node. */
  default List<Listing.ChannelItem> channels(OtherNodes others) {
    return others.withChannels(channels());
  }
}
