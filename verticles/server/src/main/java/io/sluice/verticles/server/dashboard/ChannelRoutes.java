package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.verticles.server.http.ApiError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Channels and their subscribers, as CHANNELS and CHANNEL show them, across every front. */
final class ChannelRoutes {

  private final DashboardContext dashboard;

  ChannelRoutes(DashboardContext dashboard) {
    this.dashboard = dashboard;
  }

  /** GET /api/channels?offset=&limit= (byte order of the names) */
  Future<Void> list(RoutingContext context) {
    Paging paging = Paging.of(context);
    List<Listing.ChannelItem> channels = dashboard.instance().channels().channels();
    return DashboardContext.ok(context, paging.page(channels, channel ->
        Names.put(new JsonObject(), "name", channel.channel())
            .put("subscribers", channel.subscriptions())
            .put("bytes", channel.readBytes())));
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
