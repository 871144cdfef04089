package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.pubsub.EventBusChannels;
import io.sluice.verticles.server.wsauth.ChannelAccess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What one WebSocket connection may do, and until when: the access its upgrade earned, then what
 * the token of each {@code auth} or {@code refresh} command earns. A user's token ends the
 * connection when it expires, unless refreshed. Runs on the connection's event loop.
 */
final class ConnectionTokens {

  /** In the range RFC 6455 leaves to applications, as Centrifugo's: the token has expired. */
  static final short TOKEN_EXPIRED = 4001;
  static final int MAX_FAILED_AUTHS = 5;
  private static final short POLICY_VIOLATION = 1008;

  /** Closes the connection with a WebSocket close status. */
  @FunctionalInterface
  interface Refusal {
    void refuse(short status, String reason);
  }

  private final Admission admission;
  private final Vertx vertx;
  private final Clock clock;
  private final ConnectionStats stats;
  private final EventBusChannels channels;
  private final Consumer<String> send;
  private final Refusal close;
  private ChannelAccess access;
  private boolean joinedAutomaticChannels;
  private long expiryTimer = -1;
  private int failedAuths;

  /**
   * @param access what the token presented at the upgrade earned, or the anonymous access
   * @param send   sends a JSON text to the client
   */
  ConnectionTokens(Admission admission, Vertx vertx, Clock clock, ConnectionStats stats, EventBusChannels channels,
                   ChannelAccess access, Consumer<String> send, Refusal close) {
    this.admission = admission;
    this.vertx = vertx;
    this.clock = clock;
    this.stats = stats;
    this.channels = channels;
    this.access = access;
    this.send = send;
    this.close = close;
  }

  ChannelAccess access() {
    return access;
  }

  /**
   * Opens the connection with the upgrade's access: {@code open} is told whether it joins * and
   * its ID channel at once; a client that has not shown a token, where one is needed, joins none.
   */
  void start(Consumer<Boolean> open) {
    joinedAutomaticChannels = access.admitted();
    open.accept(joinedAutomaticChannels);
    grant(access);
  }

  /** The connection is closed: its token no longer expires. */
  void stop() {
    vertx.cancelTimer(expiryTimer);
  }

  /**
   * The admin token or a user's token (JWT). A wrong admin token counts against the client's
   * address (see {@link io.sluice.verticles.server.http.BearerToken}); every wrong token counts
   * against this connection, which is closed after {@value #MAX_FAILED_AUTHS}: guessing needs new
   * connections. vertx-auth-jwt verifies on the calling thread, so the commands after this one see
   * its result.
   */
  void auth(JsonObject command, Object id) {
    answer("auth", admission.check(token(command), stats.ip()), id);
  }

  /** A new token for the same user, before the current one expires (as Centrifugo's refresh). */
  void refresh(JsonObject command, Object id) {
    if (!(access instanceof ChannelAccess.User current)) {
      send.accept(JsonFrames.error("refresh takes a user's token on a connection that has one; send auth", id));
      return;
    }
    Function<ChannelAccess, Future<ChannelAccess>> sameUser = next ->
        next instanceof ChannelAccess.User user && user.subject().equals(current.subject())
            ? Future.succeededFuture(next)
            : Future.failedFuture("a refresh must be a token of the same user");
    answer("refresh", admission.check(token(command), stats.ip()).compose(sameUser), id);
  }

  private static String token(JsonObject command) {
    return command.getValue("token") instanceof String text ? text : null;
  }

  private void answer(String op, Future<ChannelAccess> verdict, Object id) {
    verdict.onComplete(result -> {
      if (result.succeeded()) {
        grant(result.result());
      }
      send.accept(JsonFrames.ack(op, null, result.succeeded(), id));
      if (result.failed() && ++failedAuths >= MAX_FAILED_AUTHS) {
        close.refuse(POLICY_VIOLATION, MAX_FAILED_AUTHS + " failed auth attempts");
      }
    });
  }

  /**
   * From now on the connection may do what {@code granted} allows. Only now does a client that
   * had to authenticate join * and its ID channel: before, it must not hear what they carry.
   */
  private void grant(ChannelAccess granted) {
    access = granted;
    if (access.admitted() && !joinedAutomaticChannels) {
      joinedAutomaticChannels = true;
      channels.joinAutomaticChannels();
    }
    stats.setUser(access.user().orElse(null));
    vertx.cancelTimer(expiryTimer);
    if (access instanceof ChannelAccess.User user && user.expiresAtMillis() > 0) {
      long now = TimeUnit.NANOSECONDS.toMillis(clock.epochNanos());
      expiryTimer = vertx.setTimer(Math.max(1, user.expiresAtMillis() - now), timer -> expire());
    }
  }

  private void expire() {
    send.accept(JsonFrames.error("token expired", null));
    close.refuse(TOKEN_EXPIRED, "token expired");
  }
}
