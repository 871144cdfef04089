package io.sluice.verticles.server.wsauth;

import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Checks a user's token (JWT): the signature, {@code aud} and {@code iss} through vertx-auth-jwt,
 * then {@code exp} and {@code nbf} on Sluice's clock with {@value #LEEWAY_SECONDS} s of leeway,
 * a {@code sub}, and the {@code sluice} claim's shape. {@link #reload()} reads the key files again.
 */
public final class TokenVerifier {

  /** Clocks of issuers and servers disagree by a little. */
  public static final long LEEWAY_SECONDS = 5;
  /** What a client is told of any refused token; the log line says why. */
  public static final String REFUSED = "invalid token";

  private static final System.Logger LOG = System.getLogger(TokenVerifier.class.getName());

  private final Vertx vertx;
  private final WebSocketAccessSettings settings;
  private final Clock clock;
  private volatile JWTAuth keys;

  private TokenVerifier(Vertx vertx, WebSocketAccessSettings settings, Clock clock) throws IOException {
    this.vertx = vertx;
    this.settings = settings;
    this.clock = clock;
    this.keys = JwtKeys.load(vertx, settings);
  }

  /** @throws IOException when a key file cannot be read or holds no usable key */
  public static TokenVerifier load(Vertx vertx, WebSocketAccessSettings settings, Clock clock) throws IOException {
    return new TokenVerifier(vertx, settings, clock);
  }

  /** A token of JWT shape (three dot-separated parts) is checked here rather than as the admin token. */
  public static boolean looksLikeJwt(String token) {
    int first = token.indexOf('.');
    return first > 0 && token.indexOf('.', first + 1) > first + 1 && token.chars().filter(c -> c == '.').count() == 2;
  }

  /** Keys whose files no longer load stay in force, and the log says so. */
  public void reload() {
    try {
      keys = JwtKeys.load(vertx, settings);
      LOG.log(System.Logger.Level.INFO, "WebSocket token keys reloaded from " + settings.keyFiles());
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "WebSocket token keys not reloaded, the previous ones stay in force: "
          + e.getMessage());
    }
  }

  /** The token's user, or a failure whose message says why it was refused (for the log, not the client). */
  public Future<ChannelAccess.User> verify(String token) {
    return keys.authenticate(new TokenCredentials(token))
        .compose(user -> {
          try {
            return Future.succeededFuture(user(user.attributes().getJsonObject("accessToken", new JsonObject())));
          } catch (IllegalArgumentException e) {
            return Future.failedFuture(e);
          }
        });
  }

  private ChannelAccess.User user(JsonObject payload) {
    long now = TimeUnit.NANOSECONDS.toSeconds(clock.epochNanos());
    Long expires = seconds(payload, "exp");
    if (expires != null && now > expires + LEEWAY_SECONDS) {
      throw new IllegalArgumentException("token expired");
    }
    Long notBefore = seconds(payload, "nbf");
    if (notBefore != null && now < notBefore - LEEWAY_SECONDS) {
      throw new IllegalArgumentException("token not yet valid (nbf)");
    }
    if (!(payload.getValue("sub") instanceof String subject) || subject.isEmpty()) {
      throw new IllegalArgumentException("token has no \"sub\"");
    }
    long expiresAtMillis = expires == null ? 0 : TimeUnit.SECONDS.toMillis(expires + LEEWAY_SECONDS);
    return new ChannelAccess.User(subject, ChannelGrants.of(payload), expiresAtMillis);
  }

  private static Long seconds(JsonObject payload, String claim) {
    Object value = payload.getValue(claim);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Number number)) {
      throw new IllegalArgumentException("\"" + claim + "\" must be a number of seconds");
    }
    return number.longValue();
  }
}
