package io.sluice.verticles.server.wsauth;

import java.util.List;
import java.util.Optional;

/**
 * What one WebSocket connection may do on channels, decided from what it presented: the admin
 * token, a user's JWT, or nothing. Two rules hold for everyone but the admin: {@code *}, the
 * broadcast every connection hears, cannot be subscribed to or published on; and a connection's
 * private ID channel (32 hex characters) is subscribable by that connection alone, whoever asks.
 */
public sealed interface ChannelAccess {

  String BROADCAST = "*";

  /** The admin token ({@code --auth-token}): everything, binary Throttr frames included. */
  record Admin() implements ChannelAccess {
    @Override
    public boolean grantsSubscribe(String channel) {
      return true;
    }

    @Override
    public boolean grantsPublish(String channel) {
      return true;
    }
  }

  /**
   * A verified token's user.
   *
   * @param expiresAtMillis the token's {@code exp} in epoch milliseconds, or 0 when it has none
   */
  record User(String subject, ChannelGrants grants, long expiresAtMillis) implements ChannelAccess {
    @Override
    public boolean grantsSubscribe(String channel) {
      return grants.maySubscribe(channel);
    }

    @Override
    public boolean grantsPublish(String channel) {
      return grants.mayPublish(channel);
    }

    @Override
    public boolean presence() {
      return grants.presence();
    }

    @Override
    public Optional<String> user() {
      return Optional.of(subject);
    }
  }

  /**
   * A client that presented no valid token.
   *
   * @param throttrFrames whether it may send binary Throttr frames: only on a server with no admin
   *                      token, as before tokens existed
   */
  record Anonymous(AnonymousMode mode, List<ChannelPattern> publicChannels, boolean throttrFrames)
      implements ChannelAccess {
    public Anonymous {
      publicChannels = List.copyOf(publicChannels);
    }

    @Override
    public boolean grantsSubscribe(String channel) {
      return switch (mode) {
        case NONE -> false;
        case SUBSCRIBE -> ChannelGrants.anyMatches(publicChannels, channel);
        case ALL -> true;
      };
    }

    @Override
    public boolean grantsPublish(String channel) {
      return mode == AnonymousMode.ALL;
    }

    @Override
    public boolean admitted() {
      return mode != AnonymousMode.NONE;
    }

    @Override
    public boolean mayUseThrottrFrames() {
      return throttrFrames && mode == AnonymousMode.ALL;
    }
  }

  boolean grantsSubscribe(String channel);

  boolean grantsPublish(String channel);

  /** Whether it may send commands at all; an anonymous client in mode none must authenticate first. */
  default boolean admitted() {
    return true;
  }

  default boolean mayUseThrottrFrames() {
    return this instanceof Admin;
  }

  /** The {@code presence} grant, for a presence query. */
  default boolean presence() {
    return this instanceof Admin;
  }

  /** The token's {@code sub}, for the dashboard and presence. */
  default Optional<String> user() {
    return Optional.empty();
  }

  /** @param ownId this connection's ID channel, 32 hex characters */
  default boolean maySubscribe(String channel, String ownId) {
    if (isIdChannel(channel)) {
      return channel.equals(ownId);
    }
    return channel.equals(BROADCAST) ? this instanceof Admin : grantsSubscribe(channel);
  }

  default boolean mayPublish(String channel) {
    if (this instanceof Admin) {
      return true;
    }
    return !channel.equals(BROADCAST) && !isIdChannel(channel) && grantsPublish(channel);
  }

  /** The shape of a connection's ID channel: 32 lowercase hex characters. */
  static boolean isIdChannel(String channel) {
    if (channel.length() != 32) {
      return false;
    }
    for (int i = 0; i < 32; i++) {
      char c = channel.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }
}
