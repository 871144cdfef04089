package io.sluice.verticles.engine.channel;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;

import java.util.List;

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
}
