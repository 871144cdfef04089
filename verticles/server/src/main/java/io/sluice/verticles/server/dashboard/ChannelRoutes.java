package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.verticles.server.http.ApiError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import io.sluice.verticles.server.pubsub.ChannelHistories;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Channels and their subscribers, as CHANNELS and CHANNEL show them, across every front. */
final class ChannelRoutes {

  private final DashboardContext dashboard;
  private final ChannelHistories histories;

  /** @param histories the channels' history on this loop, or null when channels keep none */
  ChannelRoutes(DashboardContext dashboard, ChannelHistories histories) {
    this.dashboard = dashboard;
    this.histories = histories;
  }

  /**
   * GET /api/channels?offset=&limit=&ids= (byte order of the names). Every connection's own channel
   * (its 32-hex ID) is left out unless {@code ids=true}: with many clients they would bury the
   * channels people made. {@code hiddenIds} says how many were left out. {@code presence} counts
   * this node's WebSocket connections present in the channel (docs/websocket.md, "Presence").
   */
  Future<Void> list(RoutingContext context) {
    Paging paging = Paging.of(context);
    boolean withIds = Boolean.parseBoolean(context.request().getParam("ids", "false"));
    List<Listing.ChannelItem> all = dashboard.instance().channels().channels();
    List<Listing.ChannelItem> shown = withIds ? all : all.stream().filter(channel -> !isIdChannel(channel.channel())).toList();
    JsonObject page = paging.page(shown, channel ->
        Names.put(new JsonObject(), "name", channel.channel())
            .put("subscribers", channel.subscriptions())
            .put("presence", dashboard.instance().presence().count(new ChannelName(channel.channel())))
            .put("bytes", channel.readBytes()))
        .put("hiddenIds", all.size() - shown.size());
    return withHistorySizes(page).compose(filled -> DashboardContext.ok(context, filled));
  }

  /** Each item's {@code history}: the messages its owner holds (one read per channel of the page). */
  private Future<JsonObject> withHistorySizes(JsonObject page) {
    if (histories == null) {
      return Future.succeededFuture(page);
    }
    List<Future<Integer>> sizes = new ArrayList<>();
    JsonArray items = page.getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.getJsonObject(i);
      sizes.add(Future.fromCompletionStage(histories.held(Names.bytes(item.getString("name")))
          .thenApply(held -> {
            item.put("history", held);
            return held;
          })));
    }
    return Future.all(sizes).map(page);
  }

  /** A connection's own channel: its ID as 32 lower-case hex digits. */
  static boolean isIdChannel(byte[] name) {
    if (name.length != 32) {
      return false;
    }
    for (byte b : name) {
      if (!((b >= '0' && b <= '9') || (b >= 'a' && b <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** GET /api/channels/{name} */
  Future<Void> detail(RoutingContext context) {
    byte[] name = Names.bytes(context.pathParam("name"));
    List<SubscriberItem> subscribers = dashboard.instance().channels().subscribers(new ChannelName(name));
    if (subscribers.isEmpty()) {
      throw new ApiError(404, "no subscriber on channel '" + context.pathParam("name") + "'", null);
    }
    JsonArray items = new JsonArray();
    for (SubscriberItem subscriber : subscribers) {
      items.add(new JsonObject()
          .put("connection", Names.hex(subscriber.connectionId()))
          .put("subscribedAtMillis", TimeUnit.NANOSECONDS.toMillis(subscriber.subscribedAtNanos()))
          .put("bytes", subscriber.readBytes()));
    }
    return DashboardContext.ok(context, Names.put(new JsonObject(), "name", name).put("subscribers", items));
  }
}
