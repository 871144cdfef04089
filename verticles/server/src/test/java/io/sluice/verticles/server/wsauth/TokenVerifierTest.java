package io.sluice.verticles.server.wsauth;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.Jwts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which tokens {@link TokenVerifier} takes, and why it refuses the others. */
class TokenVerifierTest {

  private final Vertx vertx = Vertx.vertx();
  private final ManualClock clock = new ManualClock();
  private final long now = TimeUnit.NANOSECONDS.toSeconds(clock.epochNanos());
  @TempDir
  Path dir;

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  private TokenVerifier hmacVerifier(WebSocketAccessSettings settings) throws IOException {
    Path secret = Files.writeString(dir.resolve("secret"), Jwts.SECRET + "\n");
    return TokenVerifier.load(vertx, settings.withJwtSecretFile(Optional.of(secret)), clock);
  }

  private JsonObject alice() {
    return Jwts.claims("alice", Jwts.grants(List.of("chat.*"), List.of("chat.room1"))).put("exp", now + 60);
  }

  private static String refusal(Future<ChannelAccess.User> verdict) {
    assertThat(verdict.toCompletionStage().toCompletableFuture()).failsWithin(java.time.Duration.ofSeconds(5));
    return verdict.cause().getMessage();
  }

  @Test
  void takesAnHs256TokenAndReadsItsGrants() throws IOException {
    TokenVerifier verifier = hmacVerifier(WebSocketAccessSettings.defaults());
    ChannelAccess.User user = await(verifier.verify(Jwts.hs256(Jwts.SECRET, alice())));
    assertThat(user.subject()).isEqualTo("alice");
    assertThat(user.expiresAtMillis()).isEqualTo(TimeUnit.SECONDS.toMillis(now + 60 + TokenVerifier.LEEWAY_SECONDS));
    assertThat(user.grantsSubscribe("chat.a")).isTrue();
    assertThat(user.grantsPublish("chat.room1")).isTrue();
    assertThat(user.grantsPublish("chat.room2")).isFalse();
  }

  @Test
  void takesHs384AndHs512FromTheSameSecret() throws IOException {
    TokenVerifier verifier = hmacVerifier(WebSocketAccessSettings.defaults());
    assertThat(await(verifier.verify(Jwts.hmac("HS384", "HmacSHA384", Jwts.SECRET, alice()))).subject()).isEqualTo("alice");
    assertThat(await(verifier.verify(Jwts.hmac("HS512", "HmacSHA512", Jwts.SECRET, alice()))).subject()).isEqualTo("alice");
  }

  @Test
  void refusesExpiredNotYetValidWrongSignatureAndUnsignedTokens() throws IOException {
    TokenVerifier verifier = hmacVerifier(WebSocketAccessSettings.defaults());
    long past = now - TokenVerifier.LEEWAY_SECONDS - 1;
    assertThat(refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice().put("exp", past))))).contains("expired");
    long future = now + TokenVerifier.LEEWAY_SECONDS + 1;
    assertThat(refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice().put("nbf", future))))).contains("nbf");
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET.replace('a', 'b'), alice())));
    refusal(verifier.verify(Jwts.unsigned(alice())));
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice()).replace('.', '!')));
    assertThat(refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice().put("sluice", "everything")))))
        .contains("\"sluice\" claim");
    assertThat(refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice().copy().put("sub", ""))))).contains("sub");
  }

  @Test
  void takesTokensWithinTheLeeway() throws IOException {
    TokenVerifier verifier = hmacVerifier(WebSocketAccessSettings.defaults());
    long justPast = now - TokenVerifier.LEEWAY_SECONDS + 1;
    assertThat(await(verifier.verify(Jwts.hs256(Jwts.SECRET, alice().put("exp", justPast).put("nbf", now + 2)))).subject())
        .isEqualTo("alice");
  }

  @Test
  void checksAudienceAndIssuerWhenConfigured() throws IOException {
    TokenVerifier verifier = hmacVerifier(WebSocketAccessSettings.defaults()
        .withAudience(Optional.of("sluice")).withIssuer(Optional.of("https://auth.example")));
    JsonObject right = alice().put("aud", "sluice").put("iss", "https://auth.example");
    assertThat(await(verifier.verify(Jwts.hs256(Jwts.SECRET, right))).subject()).isEqualTo("alice");
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, right.copy().put("aud", "other"))));
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, right.copy().put("iss", "https://evil.example"))));
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice())));
  }

  /** Rotation: tokens of the old key and of the new one both pass while both are configured. */
  @Test
  void takesRs256AndEs256FromEitherOfTwoPublicKeys() throws IOException {
    KeyPair old = Jwts.rsa();
    KeyPair next = Jwts.ec();
    TokenVerifier verifier = TokenVerifier.load(vertx, WebSocketAccessSettings.defaults().withJwtPublicKeys(List.of(
        Jwts.pem(old.getPublic(), dir.resolve("old.pem")), Jwts.pem(next.getPublic(), dir.resolve("next.pem")))), clock);
    assertThat(await(verifier.verify(Jwts.signed(old, alice()))).subject()).isEqualTo("alice");
    assertThat(await(verifier.verify(Jwts.signed(next, alice()))).subject()).isEqualTo("alice");
    refusal(verifier.verify(Jwts.signed(Jwts.rsa(), alice())));
    refusal(verifier.verify(Jwts.signed(Jwts.ec(), alice())));
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice())));
  }

  @Test
  void reloadsChangedKeysAndKeepsTheOldOnesWhenTheNewFileIsBad() throws IOException {
    TokenVerifier verifier = hmacVerifier(WebSocketAccessSettings.defaults());
    String other = Jwts.SECRET.toUpperCase(java.util.Locale.ROOT);
    Files.writeString(dir.resolve("secret"), other);
    verifier.reload();
    refusal(verifier.verify(Jwts.hs256(Jwts.SECRET, alice())));
    assertThat(await(verifier.verify(Jwts.hs256(other, alice()))).subject()).isEqualTo("alice");
    Files.writeString(dir.resolve("secret"), "short");
    verifier.reload();
    assertThat(await(verifier.verify(Jwts.hs256(other, alice()))).subject()).isEqualTo("alice");
  }

  @Test
  void refusesShortSecretsAndFilesThatHoldNoKey() throws IOException {
    Path shortSecret = Files.writeString(dir.resolve("short"), "too-short");
    assertThatThrownBy(() -> TokenVerifier.load(vertx,
        WebSocketAccessSettings.defaults().withJwtSecretFile(Optional.of(shortSecret)), clock))
        .hasMessageContaining("at least 32 bytes");
    Path notPem = Files.writeString(dir.resolve("key.pem"), "hello");
    assertThatThrownBy(() -> TokenVerifier.load(vertx,
        WebSocketAccessSettings.defaults().withJwtPublicKeys(List.of(notPem)), clock)).isInstanceOf(IOException.class);
    Path emptyJwks = Files.writeString(dir.resolve("jwks.json"), "{\"keys\":[]}");
    assertThatThrownBy(() -> TokenVerifier.load(vertx,
        WebSocketAccessSettings.defaults().withJwksFile(Optional.of(emptyJwks)), clock)).hasMessageContaining("no key");
  }

  @Test
  void takesKeysFromAJwksDocument() throws IOException {
    KeyPair keys = Jwts.rsa();
    java.security.interfaces.RSAPublicKey rsa = (java.security.interfaces.RSAPublicKey) keys.getPublic();
    java.util.Base64.Encoder url = java.util.Base64.getUrlEncoder().withoutPadding();
    JsonObject jwk = new JsonObject().put("kty", "RSA").put("alg", "RS256").put("use", "sig")
        .put("n", url.encodeToString(unsigned(rsa.getModulus()))).put("e", url.encodeToString(unsigned(rsa.getPublicExponent())));
    Path jwks = Files.writeString(dir.resolve("jwks.json"), new JsonObject().put("keys", List.of(jwk)).encode());
    TokenVerifier verifier = TokenVerifier.load(vertx, WebSocketAccessSettings.defaults().withJwksFile(Optional.of(jwks)), clock);
    assertThat(await(verifier.verify(Jwts.signed(keys, alice()))).subject()).isEqualTo("alice");
    refusal(verifier.verify(Jwts.signed(Jwts.rsa(), alice())));
  }

  private static byte[] unsigned(java.math.BigInteger value) {
    byte[] bytes = value.toByteArray();
    return bytes[0] == 0 ? java.util.Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
  }
}
