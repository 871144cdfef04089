package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.Presence;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One WebSocket connection's presence: the channels it is present in (it subscribed there with a
 * JSON command) and those whose join and leave events it asked for. A user's join and leave are
 * announced to the channel's listeners on every node; an anonymous client's are not (it has no
 * name to announce), it is only counted.
 */
final class ConnectionPresence {

  private final PresenceLoop loop;
  private final String connection;
  private final PresenceEvents.Listener listener;
  private final Set<ChannelName> present = new HashSet<>();
  private final Set<ChannelName> listening = new HashSet<>();

  ConnectionPresence(PresenceLoop loop, String connection, PresenceEvents.Listener listener) {
    this.loop = loop;
    this.connection = connection;
    this.listener = listener;
  }

  /** A subscribe's {@code "join_leave"}: absent is false. */
  static boolean asksJoinLeave(JsonObject subscribe) {
    Object value = subscribe.getValue("join_leave", false);
    if (!(value instanceof Boolean asked)) {
      throw new IllegalArgumentException("\"join_leave\" must be true or false");
    }
    return asked;
  }

  /** After a subscribe: present from now on, and hearing joins and leaves if {@code joinLeave}. */
  void join(String channel, Optional<String> user, boolean joinLeave) {
    ChannelName name = name(channel);
    if (joinLeave && listening.add(name)) {
      loop.events().listen(name, listener);
    }
    long now = TimeUnit.NANOSECONDS.toMillis(loop.instance().clock().epochNanos());
    if (present.add(name) && loop.registry().join(name, new Presence(user, connection, now))) {
      user.ifPresent(sub -> loop.events().announce(name, JsonFrames.presenceEvent("join", channel, sub, connection)));
    }
  }

  /** After an unsubscribe: absent, and no more events of the channel. */
  void leave(String channel) {
    leave(name(channel));
  }

  /** The connection closed: it leaves every channel it was in. */
  void leaveAll() {
    for (ChannelName name : Set.copyOf(present)) {
      leave(name);
    }
    for (ChannelName name : Set.copyOf(listening)) {
      stopListening(name);
    }
  }

  private void leave(ChannelName name) {
    stopListening(name);
    if (present.remove(name)) {
      loop.registry().leave(name, connection).flatMap(Presence::user).ifPresent(sub -> loop.events().announce(name,
          JsonFrames.presenceEvent("leave", name.toString(), sub, connection)));
    }
  }

  private void stopListening(ChannelName name) {
    if (listening.remove(name)) {
      loop.events().stopListening(name, listener);
    }
  }

  private static ChannelName name(String channel) {
    return new ChannelName(channel.getBytes(StandardCharsets.UTF_8));
  }
}
