package io.sluice.verticles.websocket;

import io.sluice.core.instance.Instance;
import io.sluice.verticles.channel.ChannelHub;
import io.sluice.verticles.http.BearerToken;
import io.sluice.verticles.http.Endpoint;
import io.sluice.verticles.http.HttpSettings;
import io.sluice.verticles.shard.ShardDirectory;
import io.sluice.verticles.shard.ShardOutbox;
import io.sluice.verticles.tcp.TcpSettings;
import io.netty.channel.Channel;
import io.vertx.core.Handler;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;

/**
 * The WebSocket bridge: browsers and services subscribe and publish on the same channels as Throttr
 * TCP clients, and may send any Throttr request in a binary message. The HTTP front mounts
 * {@link #handler()} at {@code /ws}; everything about the bridge lives in this package.
 */
public final class WebSocketBridge {

  private static final System.Logger LOG = System.getLogger(WebSocketBridge.class.getName());

  private final Instance instance;
  private final ShardDirectory shards;
  private final WebSocketAccess access;
  private final TcpSettings limits;

  /** @param limits frame size and per-connection bounds, the same as for TCP clients */
  public WebSocketBridge(Instance instance, ShardDirectory shards, HttpSettings http, BearerToken token,
                         TcpSettings limits) {
    this.instance = instance;
    this.shards = shards;
    this.access = new WebSocketAccess(http.allowedOrigins(), token);
    this.limits = limits;
  }

  /**
   * Checks origin and token, then upgrades the request and serves the connection on this event
   * loop. Called once per HTTP front instance, on its event loop: each gets its own channel hub.
   */
  public Handler<RoutingContext> handler() {
    io.vertx.core.Context loop = io.vertx.core.Vertx.currentContext();
    ChannelHub hub = new ChannelHub(loop.owner().eventBus());
    ShardOutbox outbox = new ShardOutbox(loop, loop.owner().eventBus(), shards);
    return context -> {
      var request = context.request();
      String refusal = access.refusal(request);
      if (refusal != null) {
        LOG.log(System.Logger.Level.WARNING, "refusing WebSocket from " + request.remoteAddress() + ": " + refusal);
        context.response().setStatusCode(403).end(refusal);
        return;
      }
      if (!request.canUpgradeToWebSocket()) {
        context.response().setStatusCode(426).putHeader("Upgrade", "websocket").end("WebSocket upgrade required");
        return;
      }
      BearerToken.Verdict verdict = access.token().verify(request);
      if (verdict == BearerToken.Verdict.REFUSED) {
        Endpoint.sendRefused(context.response(), access.token(), request);
        return;
      }
      boolean authenticated = verdict == BearerToken.Verdict.ADMITTED;
      // The upgraded socket keeps the HTTP connection's Netty channel; vertx-web's wrapper of the
      // socket does not reveal it, the connection does.
      Channel channel = ((ConnectionBase) request.connection()).channel();
      request.toWebSocket().onSuccess(socket ->
          new WebSocketConnection(socket, channel, instance, outbox, hub, access, authenticated, limits).start());
    };
  }
}
