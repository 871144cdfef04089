package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The HTTP port's shared secret ({@link HttpSettings#authToken()}), presented as
 * {@code Authorization: Bearer <token>} or, on the WebSocket bridge, in an auth message. One
 * instance serves every feature on the port, so wrong tokens count per client address wherever
 * they are tried ({@link AuthFailures}).
 */
public final class BearerToken {

  /** What a presented token earns. */
  public enum Verdict {
    ADMITTED,
    /** No Bearer credentials: not a guess, and not counted. */
    MISSING,
    /** A wrong token, counted against the client's address. */
    WRONG,
    /** The address has failed too often lately; nothing is compared. */
    REFUSED
  }

  private static final System.Logger LOG = System.getLogger(BearerToken.class.getName());
  private static final String SCHEME = "Bearer ";

  private final byte[] token;
  private final AuthFailures failures;

  /** @param token empty when clients need not authenticate */
  public BearerToken(Optional<String> token, Clock clock) {
    this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8)).orElse(null);
    this.failures = new AuthFailures(clock);
  }

  public boolean required() {
    return token != null;
  }

  /** The request's Authorization header; ADMITTED when no token is configured. */
  public Verdict verify(HttpServerRequest request) {
    if (token == null) {
      return Verdict.ADMITTED;
    }
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    boolean bearer = header != null && header.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    return verify(bearer ? header.substring(SCHEME.length()).trim() : null, request.remoteAddress().hostAddress());
  }

  /**
   * A token presented by a client at {@code address}; null when it presented none. Compared in
   * constant time, so response timing does not reveal how much of a guess was right.
   */
  public Verdict verify(String presented, String address) {
    if (token == null) {
      return Verdict.ADMITTED;
    }
    if (failures.refusedForSeconds(address) > 0) {
      return Verdict.REFUSED;
    }
    if (presented == null) {
      return Verdict.MISSING;
    }
    if (MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
      return Verdict.ADMITTED;
    }
    if (failures.failed(address)) {
      LOG.log(System.Logger.Level.WARNING, "refusing token attempts from " + AuthFailures.key(address) + " for up to "
          + AuthFailures.WINDOW_SECONDS + " s after " + AuthFailures.MAX_FAILURES + " wrong tokens");
    }
    return Verdict.WRONG;
  }

  /** For Retry-After once {@link Verdict#REFUSED}. */
  public long refusedForSeconds(String address) {
    return failures.refusedForSeconds(address);
  }
}
