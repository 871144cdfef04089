package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.UdpPeers;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.metrics.Callers;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The open client connections, TCP and WebSocket, as CONNECTIONS and CONNECTION show them, and apart
 * from them the clients without a connection: the UDP endpoint's recent peers ({@code udp:IP:PORT}) and
 * the recent callers of the HTTP check API and the gRPC service ({@code http:IP}, {@code grpc:IP}).
 */
final class ConnectionRoutes {

  private final DashboardContext dashboard;
  private final Callers callers;

  ConnectionRoutes(DashboardContext dashboard, Callers callers) {
    this.dashboard = dashboard;
    this.callers = callers;
  }

  /** GET /api/connections?offset=&limit= (oldest first): open TCP and WebSocket connections only. */
  Future<Void> list(RoutingContext context) {
    Paging paging = Paging.of(context);
    List<ConnectionStats> open = dashboard.instance().connections().all();
    return DashboardContext.ok(context, paging.page(open, ConnectionRoutes::summary));
  }

  /**
   * GET /api/udp-peers?offset=&limit=: the UDP endpoint's recent peers by source address, newest
   * first, apart from the connections (a datagram opens nothing, so a peer is no open connection).
   */
  Future<Void> udpPeers(RoutingContext context) {
    return DashboardContext.ok(context, Paging.of(context).page(UdpSources.of(activeUdpPeers()), UdpSources.Source::json));
  }

  private List<UdpPeers.Peer> activeUdpPeers() {
    return dashboard.instance().udpPeers().active(dashboard.instance().clock().epochNanos());
  }

  /**
   * GET /api/callers?offset=&limit=: the recent callers of the check API and the gRPC service by
   * protocol and remote address, the one heard from last first, then the busiest.
   */
  Future<Void> callers(RoutingContext context) {
    return DashboardContext.ok(context, Paging.of(context).page(callers.active(), ConnectionRoutes::summary));
  }

  /** GET /api/connections/{id} */
  Future<Void> detail(RoutingContext context) {
    String id = context.pathParam("id");
    for (Callers.Caller caller : callers.active()) {
      if (caller.id().equals(id)) {
        return DashboardContext.ok(context, summary(caller));
      }
    }
    for (UdpPeers.Peer peer : activeUdpPeers()) {
      if (peer.id().equals(id)) {
        return DashboardContext.ok(context, summary(peer));
      }
    }
    for (UdpSources.Source source : UdpSources.of(activeUdpPeers())) {
      if (source.id().equals(id)) {
        return DashboardContext.ok(context, source.json());
      }
    }
    ConnectionStats found = null;
    if (id.length() == 32 && id.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      found = dashboard.instance().connections().find(HexFormat.of().parseHex(id));
    }
    if (found == null) {
      throw new ApiError(404, "no open connection '" + id + "'", null);
    }
    JsonObject byCommand = new JsonObject();
    for (RequestType command : Overview.COMMANDS) {
      byCommand.put(command.name(), found.requestCount(command.code()));
    }
    io.vertx.core.json.JsonArray subscriptions = new io.vertx.core.json.JsonArray();
    dashboard.instance().channels().channelsOf(found.id())
        .forEach(name -> subscriptions.add(new String(name.bytes(), java.nio.charset.StandardCharsets.UTF_8)));
    return DashboardContext.ok(context, summary(found).put("requestsByCommand", byCommand)
        .put("subscriptions", subscriptions));
  }

  private static JsonObject summary(UdpPeers.Peer peer) {
    return new JsonObject()
        .put("id", peer.id())
        .put("protocol", "udp")
        .put("address", peer.ip())
        .put("port", peer.port())
        .put("connectedAtMillis", TimeUnit.NANOSECONDS.toMillis(peer.firstSeenNanos()))
        .put("lastSeenMillis", TimeUnit.NANOSECONDS.toMillis(peer.lastSeenNanos()))
        .put("readBytes", peer.readBytes())
        .put("writeBytes", peer.writeBytes())
        .put("publishedBytes", 0)
        .put("receivedBytes", 0)
        .put("requests", peer.requests());
  }

  private static JsonObject summary(Callers.Caller caller) {
    return new JsonObject()
        .put("id", caller.id())
        .put("protocol", caller.protocolName())
        .put("address", caller.ip())
        .put("connectedAtMillis", TimeUnit.NANOSECONDS.toMillis(caller.firstSeenNanos()))
        .put("lastSeenMillis", TimeUnit.NANOSECONDS.toMillis(caller.lastSeenNanos()))
        .put("readBytes", caller.readBytes())
        .put("writeBytes", caller.writeBytes())
        .put("requests", caller.requests())
        .put("allowed", caller.allowed())
        .put("denied", caller.denied());
  }

  private static JsonObject summary(ConnectionStats connection) {
    ConnectionItem item = connection.toItem();
    long requests = 0;
    for (RequestType command : Overview.COMMANDS) {
      requests += item.requestCounts()[command.code()];
    }
    return new JsonObject()
        .put("id", connection.idHex())
        .put("protocol", connection.protocol().name().toLowerCase(Locale.ROOT))
        .put("address", connection.ip())
        .put("port", connection.port())
        .put("connectedAtMillis", TimeUnit.NANOSECONDS.toMillis(connection.connectedAtNanos()))
        .put("readBytes", item.readBytes())
        .put("writeBytes", item.writeBytes())
        .put("publishedBytes", item.publishedBytes())
        .put("receivedBytes", item.receivedBytes())
        .put("requests", requests)
        .put("user", connection.user().orElse(null));
  }
}
