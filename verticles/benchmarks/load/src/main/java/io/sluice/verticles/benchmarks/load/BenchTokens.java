package io.sluice.verticles.benchmarks.load;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Base64;

/**
 * Users' tokens for {@code bench fanout --jwt-secret-file}: HS256, signed with the secret the
 * server reads from its {@code --ws-jwt-secret-file}, one per subscriber (each with its own
 * {@code sub}), so the server verifies a distinct token on every connection.
 */
final class BenchTokens {

  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
  private static final String HEADER = URL.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}"
      .getBytes(StandardCharsets.US_ASCII));

  private final Mac mac;

  private BenchTokens(String secret) throws GeneralSecurityException {
    mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
  }

  /** The secret is the file's content without its line end, as the server reads it. */
  static BenchTokens fromFile(Path file) throws IOException, GeneralSecurityException {
    return new BenchTokens(Files.readString(file, StandardCharsets.UTF_8).strip());
  }

  /** A token of {@code subject} that may subscribe to {@code channel}, valid for an hour. */
  String token(String subject, String channel) {
    long now = System.currentTimeMillis() / 1000;
    JsonObject claims = new JsonObject().put("sub", subject).put("exp", now + 3600)
        .put("sluice", new JsonObject().put("subscribe", new JsonArray().add(channel)));
    String signed = HEADER + "." + URL.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8));
    return signed + "." + URL.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
  }
}
