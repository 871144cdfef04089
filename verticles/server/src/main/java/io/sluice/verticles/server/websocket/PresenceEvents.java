package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelName;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The join and leave events of one event loop's WebSocket connections, carried as pub/sub carries
 * messages: one event-bus address per channel (beside the channel's own, so Throttr subscribers
 * never see them), which a publish reaches on every node, and ONE consumer per channel and loop
 * handing each event to the loop's connections that asked for them. Used only from its loop.
 */
final class PresenceEvents {

  /** A connection that subscribed with {@code "join_leave":true}. */
  interface Listener {
    void presenceEvent(String event);
  }

  private final EventBus eventBus;
  private final Map<ChannelName, Listeners> channels = new HashMap<>();

  private final class Listeners {
    final List<Listener> listeners = new ArrayList<>();
    final MessageConsumer<String> consumer;

    Listeners(ChannelName name) {
      consumer = eventBus.consumer(address(name), event -> {
        for (Listener listener : listeners.toArray(new Listener[0])) {
          listener.presenceEvent(event.body());
        }
      });
    }
  }

  PresenceEvents(EventBus eventBus) {
    this.eventBus = eventBus;
  }

  static String address(ChannelName name) {
    return name.address() + ".presence";
  }

  /** Sends {@code event} (its JSON text, made once) to every listener of the channel on every node. */
  void announce(ChannelName name, String event) {
    eventBus.publish(address(name), event);
  }

  void listen(ChannelName name, Listener listener) {
    channels.computeIfAbsent(name, Listeners::new).listeners.add(listener);
  }

  void stopListening(ChannelName name, Listener listener) {
    Listeners channel = channels.get(name);
    if (channel == null) {
      return;
    }
    channel.listeners.remove(listener);
    if (channel.listeners.isEmpty()) {
      channel.consumer.unregister();
      channels.remove(name);
    }
  }
}
