package io.sluice.verticles.server.wsauth;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads the key files of {@link WebSocketAccessSettings} into a vertx-auth-jwt provider: the secret
 * for HS256/384/512, each PEM public key for RS256 or ES256 (told apart by the key itself), and
 * the keys of a JWKS document. vertx-auth-jwt checks the signature, {@code aud} and {@code iss};
 * {@link TokenVerifier} checks the times on Sluice's clock.
 */
final class JwtKeys {

  /** RFC 7518 §3.2: an HMAC key at least as long as the hash; the shortest hash here is 256 bits. */
  static final int MIN_SECRET_BYTES = 32;

  private JwtKeys() {
  }

  /** @throws IOException when a file cannot be read or holds no usable key */
  static JWTAuth load(Vertx vertx, WebSocketAccessSettings settings) throws IOException {
    JWTOptions checks = new JWTOptions().setIgnoreExpiration(true);
    settings.audience().ifPresent(audience -> checks.setAudience(List.of(audience)));
    settings.issuer().ifPresent(checks::setIssuer);
    JWTAuthOptions options = new JWTAuthOptions().setJWTOptions(checks);
    if (settings.jwtSecretFile().isPresent()) {
      String secret = secret(settings.jwtSecretFile().get());
      for (String algorithm : List.of("HS256", "HS384", "HS512")) {
        options.addPubSecKey(new PubSecKeyOptions().setAlgorithm(algorithm).setBuffer(secret));
      }
    }
    for (Path file : settings.jwtPublicKeys()) {
      String pem = Files.readString(file, StandardCharsets.US_ASCII);
      options.addPubSecKey(new PubSecKeyOptions().setAlgorithm(publicKeyAlgorithm(file, pem)).setBuffer(pem));
    }
    if (settings.jwksFile().isPresent()) {
      options.setJwks(jwks(settings.jwksFile().get()));
    }
    try {
      return JWTAuth.create(vertx, options);
    } catch (RuntimeException e) {
      throw new IOException("the WebSocket token keys do not load: " + e.getMessage(), e);
    }
  }

  private static String secret(Path file) throws IOException {
    String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
      throw new IOException(file + " must hold a secret of at least " + MIN_SECRET_BYTES + " bytes");
    }
    return secret;
  }

  /** RS256 for an RSA key, ES256 for an EC key (P-256). */
  private static String publicKeyAlgorithm(Path file, String pem) throws IOException {
    String body = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
    byte[] der;
    try {
      der = Base64.getDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      throw new IOException(file + " is not a PEM public key (BEGIN PUBLIC KEY)", e);
    }
    for (String[] kind : new String[][] {{"RSA", "RS256"}, {"EC", "ES256"}}) {
      try {
        KeyFactory.getInstance(kind[0]).generatePublic(new X509EncodedKeySpec(der));
        return kind[1];
      } catch (GeneralSecurityException notThisKind) {
        // try the next
      }
    }
    throw new IOException(file + " holds neither an RSA nor an EC public key");
  }

  private static List<JsonObject> jwks(Path file) throws IOException {
    JsonArray keys;
    try {
      keys = new JsonObject(Files.readString(file, StandardCharsets.UTF_8)).getJsonArray("keys");
    } catch (RuntimeException e) {
      throw new IOException(file + " is not a JWKS document ({\"keys\":[…]}): " + e.getMessage(), e);
    }
    if (keys == null || keys.isEmpty()) {
      throw new IOException(file + " holds no key (\"keys\" is missing or empty)");
    }
    List<JsonObject> list = new ArrayList<>(keys.size());
    for (Object key : keys) {
      if (!(key instanceof JsonObject jwk)) {
        throw new IOException(file + ": each of \"keys\" must be an object");
      }
      list.add(jwk);
    }
    return list;
  }
}
