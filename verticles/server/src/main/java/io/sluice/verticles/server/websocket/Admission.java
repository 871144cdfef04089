package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.wsauth.ChannelAccess;
import io.sluice.verticles.server.wsauth.TokenVerifier;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.util.Optional;

/**
 * Turns what a WebSocket client presents into its {@link ChannelAccess}: the admin token
 * ({@code --auth-token}), a user's token (JWT, when keys are configured), or nothing. A token of
 * JWT shape is checked as a user's token only, so users' expired tokens never count as guesses of
 * the admin token.
 */
final class Admission {

  private static final String BEARER = "Bearer ";
  private static final ChannelAccess ADMIN = new ChannelAccess.Admin();

  private final BearerToken adminToken;
  private final Optional<TokenVerifier> users;
  private final ChannelAccess.Anonymous anonymous;

  Admission(BearerToken adminToken, Optional<TokenVerifier> users, ChannelAccess.Anonymous anonymous) {
    this.adminToken = adminToken;
    this.users = users;
    this.anonymous = anonymous;
  }

  /** What anonymous clients may do. */
  ChannelAccess.Anonymous anonymous() {
    return anonymous;
  }

  /** The token of an upgrade request: {@code Authorization: Bearer …}, else {@code ?token=}; null if neither. */
  static String presented(HttpServerRequest request) {
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return header.substring(BEARER.length()).trim();
    }
    return request.getParam("token");
  }

  /** Whether this token is checked as a user's token. */
  boolean isUserToken(String presented) {
    return users.isPresent() && TokenVerifier.looksLikeJwt(presented);
  }

  /**
   * The access a presented token earns; a failed future (its message for the log) for a wrong one.
   * On a server with neither an admin token nor user keys, any token changes nothing: the client
   * keeps the anonymous access, as before tokens existed.
   */
  Future<ChannelAccess> check(String presented, String address) {
    if (!adminToken.required() && users.isEmpty()) {
      return Future.succeededFuture(anonymous);
    }
    if (presented == null) {
      return Future.failedFuture("no token");
    }
    if (isUserToken(presented)) {
      return users.get().verify(presented).map(user -> user);
    }
    if (!adminToken.required()) {
      return Future.failedFuture("not a user's token");
    }
    return adminToken.verify(presented, address) == BearerToken.Verdict.ADMITTED
        ? Future.succeededFuture(ADMIN)
        : Future.failedFuture("wrong token");
  }

  /** Whether the address has presented too many wrong admin tokens lately. */
  boolean refuses(String address) {
    return adminToken.required() && adminToken.refusedForSeconds(address) > 0;
  }
}
