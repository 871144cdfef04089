package io.sluice.verticles.engine.channel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who is present in which channel on this node: the WebSocket connections subscribed there, once
 * each however many times they subscribed. A cluster keeps no shared copy: a presence query asks
 * every live node for its part, so a node that dies takes its members with it and nothing is left
 * to clean. Fronts on every event loop use it, hence the lock, held for map operations only.
 */
public final class PresenceRegistry {

  private final Map<ChannelName, Map<String, Presence>> channels = new HashMap<>();

  /** @return false when the connection was present already (no second join) */
  public synchronized boolean join(ChannelName channel, Presence member) {
    return channels.computeIfAbsent(channel, name -> new LinkedHashMap<>())
        .putIfAbsent(member.connection(), member) == null;
  }

  /** @return the member that left, empty when the connection was not present */
  public synchronized Optional<Presence> leave(ChannelName channel, String connection) {
    Map<String, Presence> members = channels.get(channel);
    if (members == null) {
      return Optional.empty();
    }
    Presence left = members.remove(connection);
    if (members.isEmpty()) {
      channels.remove(channel);
    }
    return Optional.ofNullable(left);
  }

  /** This node's part of a presence answer, at most {@code limit} users listed (the earliest). */
  public synchronized PresencePart part(ChannelName channel, int limit) {
    Map<String, Presence> members = channels.get(channel);
    if (members == null) {
      return PresencePart.EMPTY;
    }
    List<Presence> users = new ArrayList<>(members.size());
    for (Presence member : members.values()) {
      if (!member.anonymous()) {
        users.add(member);
      }
    }
    long anonymous = members.size() - users.size();
    users.sort(Presence.EARLIEST_FIRST);
    long named = users.size();
    return new PresencePart(users.subList(0, Math.min(limit, users.size())), named, anonymous, true);
  }

  /** How many connections are present in the channel on this node, users and anonymous ones. */
  public synchronized int count(ChannelName channel) {
    Map<String, Presence> members = channels.get(channel);
    return members == null ? 0 : members.size();
  }
}
