package io.sluice.verticles.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The HTTP front's shared secret ({@link HttpSettings#authToken()}), presented as
 * {@code Authorization: Bearer <token>}. Every feature on the port checks it the same way.
 */
public final class BearerToken {

  private static final String SCHEME = "Bearer ";

  private final byte[] token;

  /** @param token empty when clients need not authenticate */
  public BearerToken(Optional<String> token) {
    this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8)).orElse(null);
  }

  public boolean required() {
    return token != null;
  }

  /** True when no token is configured or the request presents it. */
  public boolean admits(HttpServerRequest request) {
    return token == null || presentedIn(request);
  }

  /** Whether the request's Authorization header carries the configured token. */
  public boolean presentedIn(HttpServerRequest request) {
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    return header != null && header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
        && matches(header.substring(SCHEME.length()).trim());
  }

  /** Compares in constant time, so response timing does not reveal the token. */
  public boolean matches(String presented) {
    return token != null && MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
  }
}
