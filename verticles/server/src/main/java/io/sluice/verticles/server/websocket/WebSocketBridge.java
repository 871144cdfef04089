package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.ProtectedMode;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.sluice.verticles.server.check.PublishLimits;
import io.netty.channel.Channel;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.sluice.verticles.server.wsauth.ChannelAccess;
import io.sluice.verticles.server.wsauth.TokenVerifier;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;

import java.util.Optional;

/**
 * The WebSocket bridge: browsers and services subscribe and publish on the same channels as Throttr
 * TCP clients, and may send any Throttr request in a binary message. The HTTP front mounts
 * {@link #handler()} at {@code /ws}; everything about the bridge lives in this package.
 */
public final class WebSocketBridge {

  private final Instance instance;
  private final ShardDirectory shards;
  private final BearerToken token;
  private final Admission admission;
  private final Optional<PublishLimits> publishLimits;
  private final ConnectionLimits limits;
  private final RequestDurations durations;
  private final ConnectionClosers closers;
  private final ProtectedMode protectedMode;

  /**
   * @param durations     where the request durations of WebSocket connections are recorded
   * @param closers       where its connections register so that an operator can close them
   * @param protectedMode who may publish and send Throttr frames when no client authenticates
   * @param users         checks users' tokens, when keys are configured
   * @param access        the anonymous mode and public channels
   * @param publishLimits   the policy publishes obey, if any
   */
  public WebSocketBridge(Instance instance, ShardDirectory shards, BearerToken token, ConnectionLimits limits,
                         RequestDurations durations, ConnectionClosers closers, ProtectedMode protectedMode,
                         Optional<TokenVerifier> users, WebSocketAccessSettings access,
                         Optional<PublishLimits> publishLimits) {
    this.closers = closers;
    this.instance = instance;
    this.shards = shards;
    this.token = token;
    this.limits = limits;
    this.durations = durations;
    this.protectedMode = protectedMode;
    this.publishLimits = publishLimits;
    this.admission = new Admission(token, users, new ChannelAccess.Anonymous(
        access.anonymousMode(token.required()), access.publicChannels(), !token.required()));
  }

  /**
   * Checks the token, then upgrades the request and serves the connection on this event loop (the
   * {@link io.sluice.verticles.server.http.RequestGuard} has checked Host and Origin). Called once per
   * HTTP front instance, on its event loop: each gets its own channel hub.
   */
  public Handler<RoutingContext> handler() {
    FrontLoop loop = FrontLoop.on(Vertx.currentContext(), instance, shards, limits, durations, closers);
    PresenceLoop presence = PresenceLoop.on(Vertx.currentContext().owner(), instance);
    Optional<PublishRate> publishRate = publishLimits.map(policy ->
        new PublishRate(policy, new ShardQueries(Vertx.currentContext(), shards)));
    return context -> {
      var request = context.request();
      if (!request.canUpgradeToWebSocket()) {
        context.response().setStatusCode(426).putHeader("Upgrade", "websocket").end("WebSocket upgrade required");
        return;
      }
      String address = request.remoteAddress().hostAddress();
      if (admission.refuses(address)) {
        Endpoint.sendRefused(context.response(), token, request);
        return;
      }
      String presented = Admission.presented(request);
      if (presented == null) {
        upgrade(request, loop, presence, publishRate, admission.anonymous());
        return;
      }
      admission.check(presented, address).onComplete(result -> {
        if (result.succeeded()) {
          upgrade(request, loop, presence, publishRate, result.result());
        } else if (admission.isUserToken(presented)) {
          // A user's token that fails is refused outright: the browser learns now, not at its first command.
          context.response().putHeader("WWW-Authenticate", "Bearer realm=\"sluice\", error=\"invalid_token\"");
          Endpoint.send(context.response(), new ApiError(401, TokenVerifier.REFUSED, null));
        } else {
          // A wrong admin token leaves the client anonymous, to authenticate later (counted as a guess).
          upgrade(request, loop, presence, publishRate, admission.anonymous());
        }
      });
    };
  }

  private void upgrade(HttpServerRequest request, FrontLoop loop, PresenceLoop presence,
                       Optional<PublishRate> publishRate,
                       ChannelAccess access) {
    // The upgraded socket keeps the HTTP connection's Netty channel; vertx-web's wrapper of the
    // socket does not reveal it, the connection does.
    Channel channel = ((ConnectionBase) request.connection()).channel();
    boolean writesRefused = protectedMode.refusesWritesFrom(request.remoteAddress());
    request.toWebSocket().onSuccess(socket ->
        new WebSocketConnection(socket, channel, loop, admission, access, writesRefused, publishRate, presence)
            .start());
  }
}
