package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

  /** SHA-256 of the token, compared with the presented token's: the time taken depends on neither. */
  private volatile byte[] token;
  private final AuthFailures failures;
  private final Path file;

  /** @param token empty when clients need not authenticate */
  public BearerToken(Optional<String> token, Clock clock) {
    this.token = token.map(BearerToken::digest).orElse(null);
    this.failures = new AuthFailures(clock);
    this.file = null;
  }

  private BearerToken(Path file, Clock clock) throws IOException {
    this.file = file;
    this.failures = new AuthFailures(clock);
    this.token = digest(read(file));
  }

  /**
   * The token in {@code file} ({@code --auth-token-file}): its content without the line end, visible
   * ASCII without spaces. {@link #reload()} reads it again, so tokens can be rotated with no restart.
   *
   * @throws IOException when the file cannot be read or holds no valid token
   */
  public static BearerToken fromFile(Path file, Clock clock) throws IOException {
    return new BearerToken(file, clock);
  }

  /** The file the token comes from, if it comes from one. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /**
   * Reads the token file again: the new token is required from then on (connections already
   * authenticated stay so). A file that holds no valid token leaves the previous one in force.
   */
  public void reload() {
    if (file == null) {
      return;
    }
    try {
      token = digest(read(file));
      LOG.log(System.Logger.Level.INFO, "auth token reloaded from " + file);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "auth token not reloaded from " + file + ", the previous one stays in force: "
          + e.getMessage());
    }
  }

  private static String read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (text.isEmpty() || !text.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IOException(file + " must hold one token: visible ASCII characters, no spaces");
    }
    return text;
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
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
   * A token presented by a client at {@code address}; null when it presented none. The SHA-256
   * digests of both are compared in constant time, so response timing reveals neither how much of
   * a guess was right nor the token's length.
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
    if (MessageDigest.isEqual(token, digest(presented))) {
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
