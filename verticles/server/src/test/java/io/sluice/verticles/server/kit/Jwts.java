package io.sluice.verticles.server.kit;

import io.vertx.core.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/**
 * Makes JSON Web Tokens for tests, signed here with the JDK rather than by the library under test,
 * including the bad ones (alg none, wrong signatures) no library would make.
 */
public final class Jwts {

  /** 32 bytes, the least --ws-jwt-secret-file takes. */
  public static final String SECRET = "a-test-secret-of-thirty-two-byte";

  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

  private Jwts() {
  }

  /** Claims with {@code sub} and the {@code sluice} grants. */
  public static JsonObject claims(String subject, JsonObject grants) {
    return new JsonObject().put("sub", subject).put("sluice", grants);
  }

  public static JsonObject grants(java.util.List<String> subscribe, java.util.List<String> publish) {
    return new JsonObject().put("subscribe", subscribe).put("publish", publish);
  }

  /** Grants with the {@code presence} right too. */
  public static JsonObject grantsWithPresence(java.util.List<String> subscribe, java.util.List<String> publish) {
    return grants(subscribe, publish).put("presence", true);
  }

  public static String hs256(String secret, JsonObject claims) {
    return hmac("HS256", "HmacSHA256", secret, claims);
  }

  public static String hmac(String alg, String macName, String secret, JsonObject claims) {
    String signed = part(new JsonObject().put("alg", alg).put("typ", "JWT")) + "." + part(claims);
    try {
      Mac mac = Mac.getInstance(macName);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), macName));
      return signed + "." + URL.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An unsigned token, {@code "alg":"none"}, which must be refused. */
  public static String unsigned(JsonObject claims) {
    return part(new JsonObject().put("alg", "none").put("typ", "JWT")) + "." + part(claims) + ".";
  }

  public static KeyPair rsa() {
    return pair("RSA", null);
  }

  /** A P-256 key pair, for ES256. */
  public static KeyPair ec() {
    return pair("EC", new ECGenParameterSpec("secp256r1"));
  }

  /** RS256 for an RSA pair, ES256 (its signature as JOSE's r‖s) for an EC pair. */
  public static String signed(KeyPair keys, JsonObject claims) {
    boolean rsa = keys.getPrivate().getAlgorithm().equals("RSA");
    String signed = part(new JsonObject().put("alg", rsa ? "RS256" : "ES256").put("typ", "JWT")) + "." + part(claims);
    try {
      Signature signature = Signature.getInstance(rsa ? "SHA256withRSA" : "SHA256withECDSAinP1363Format");
      signature.initSign(keys.getPrivate());
      signature.update(signed.getBytes(StandardCharsets.US_ASCII));
      return signed + "." + URL.encodeToString(signature.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes a public key as PEM ({@code BEGIN PUBLIC KEY}) into {@code file}. */
  public static Path pem(PublicKey key, Path file) throws IOException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded());
    return Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n");
  }

  private static KeyPair pair(String algorithm, ECGenParameterSpec curve) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      if (curve != null) {
        generator.initialize(curve);
      } else {
        generator.initialize(2048);
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String part(JsonObject json) {
    return URL.encodeToString(json.encode().getBytes(StandardCharsets.UTF_8));
  }
}
