package io.sluice.verticles.channel;

/**
 * A message published to a channel, as it travels on the channel's event-bus address. Immutable:
 * one instance reaches every subscriber.
 *
 * @param publisherId the publishing connection's ID, so its own subscriptions skip the copy it
 *                    already pushed to itself before its status byte
 */
public record ChannelMessage(byte[] channel, byte[] payload, byte[] publisherId) {
}
