package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.server.pubsub.ChannelFanOut;
import io.sluice.verticles.server.pubsub.ChannelMessage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The join and leave events of one event loop's WebSocket connections, carried as pub/sub carries
 * messages ({@link ChannelFanOut#presenceEvents}, apart from the messages, so Throttr subscribers
 * never see them): each event reaches every loop of every node, and each loop hands it to its
 * connections that asked for the channel's events. Used only from its loop.
 */
final class PresenceEvents {

  /** A connection that subscribed with {@code "join_leave":true}. */
  interface Listener {
    void presenceEvent(String event);
  }

  private final ChannelFanOut fanOut;
  private final Map<ChannelName, List<Listener>> channels = new HashMap<>();

  /** Call on the loop: its listeners hear every node's events from now on. */
  PresenceEvents(io.vertx.core.Vertx vertx) {
    this.fanOut = ChannelFanOut.presenceEvents(vertx);
    fanOut.listen(message -> {
      List<Listener> listeners = channels.get(new ChannelName(message.channel()));
      if (listeners != null) {
        String event = new String(message.payload(), StandardCharsets.UTF_8);
        for (Listener listener : listeners.toArray(new Listener[0])) {
          listener.presenceEvent(event);
        }
      }
    });
  }

  /** Sends {@code event} (its JSON text, made once) to every listener of the channel on every node. */
  void announce(ChannelName name, String event) {
    fanOut.publish(new ChannelMessage(name.bytes(), event.getBytes(StandardCharsets.UTF_8), ChannelMessage.NO_PUBLISHER));
  }

  void listen(ChannelName name, Listener listener) {
    channels.computeIfAbsent(name, n -> new ArrayList<>()).add(listener);
  }

  void stopListening(ChannelName name, Listener listener) {
    List<Listener> listeners = channels.get(name);
    if (listeners == null) {
      return;
    }
    listeners.remove(listener);
    if (listeners.isEmpty()) {
      channels.remove(name);
    }
  }
}
