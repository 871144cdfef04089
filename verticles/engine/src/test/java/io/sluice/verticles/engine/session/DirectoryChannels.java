package io.sluice.verticles.engine.session;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.Channels;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;

import java.util.Arrays;
import java.util.List;

/** Channels kept only in the instance's directory, with no delivery: enough for sessions under test. */
final class DirectoryChannels implements Channels {

  private final Instance instance;
  private final ConnectionStats connection;

  DirectoryChannels(Instance instance, ConnectionStats connection) {
    this.instance = instance;
    this.connection = connection;
  }

  @Override
  public boolean subscribe(byte[] channel) {
    instance.channels().subscribe(new ChannelName(channel), connection.id(), instance.clock().epochNanos());
    return true;
  }

  @Override
  public boolean unsubscribe(byte[] channel) {
    return instance.channels().unsubscribe(new ChannelName(channel), connection.id()) > 0;
  }

  @Override
  public int publish(byte[] channel, byte[] payload) {
    List<SubscriberItem> subscribers = subscribers(channel);
    if (subscribers.isEmpty()) {
      return -1;
    }
    byte[] own = connection.id();
    return (int) subscribers.stream().filter(s -> Arrays.equals(s.connectionId(), own)).count();
  }

  @Override
  public List<SubscriberItem> subscribers(byte[] channel) {
    return instance.channels().subscribers(new ChannelName(channel));
  }

  @Override
  public List<Listing.ChannelItem> channels() {
    return instance.channels().channels();
  }
}
