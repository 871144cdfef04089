package io.sluice.verticles.server.http;

import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static io.sluice.verticles.server.kit.ChannelCalls.ackAuth;
import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guessing the token is throttled: a WebSocket is closed (1008) after a few wrong auth messages,
 * and an address that presents too many wrong tokens, on HTTP or the bridge, is answered 429 for a
 * while, even with the right token. Other addresses are served meanwhile; the address is again
 * once its window ends.
 */
class TokenGuessingTest {

  private static final String TOKEN = "s3cret-token";
  /** Another loopback address: Linux routes all of 127/8 to the loopback interface. */
  private static final String OTHER_ADDRESS = "127.0.0.2";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withHttp(HttpSettings.defaults().withAuthToken(Optional.of(TOKEN))));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  /** One request on a connection of its own from {@code from}: wrong tokens count per client address. */
  private Answer overview(String from, String authorization) {
    try (HttpCalls calls = new HttpCalls(vertx, sut.httpPort(), from)) {
      return authorization == null ? calls.get("/api/overview") : calls.get("/api/overview", "Authorization", authorization);
    }
  }

  private JsonWebSocket openWebSocket(String from) {
    return await(JsonWebSocket.open(vertx, new WebSocketClientOptions().setLocalAddress(from),
        JsonWebSocket.options(sut.httpPort())));
  }

  private static JsonObject auth(String token) {
    return new JsonObject().put("op", "auth").put("token", token);
  }

  @Test
  void httpAddressIsRefusedAfterRepeatedWrongTokens() {
    for (int i = 0; i < 2 * AuthFailures.MAX_FAILURES; i++) {
      assertThat(overview("127.0.0.1", null).status()).as("no token is not a guess").isEqualTo(401);
    }
    try (LogCapture log = new LogCapture("io.sluice")) {
      for (int i = 0; i < AuthFailures.MAX_FAILURES; i++) {
        assertThat(overview("127.0.0.1", "Bearer guess-" + i).status()).isEqualTo(401);
      }
      Answer refused = overview("127.0.0.1", "Bearer " + TOKEN);
      assertThat(refused.status()).as("even the right token, while refused").isEqualTo(429);
      assertThat(refused.header("Retry-After")).isEqualTo(Long.toString(AuthFailures.WINDOW_SECONDS));
      assertThat(refused.json().getString("error")).contains("too many wrong tokens");
      assertThat(log.aboveDebug()).as("one line when the address is refused").hasSize(1);
    }

    assertThat(overview(OTHER_ADDRESS, "Bearer " + TOKEN).status()).as("another address").isEqualTo(200);
    sut.advance(Duration.ofSeconds(AuthFailures.WINDOW_SECONDS));
    assertThat(overview("127.0.0.1", "Bearer " + TOKEN).status()).as("after the window").isEqualTo(200);
  }

  @Test
  void webSocketIsClosedAfterRepeatedWrongAuthMessages() {
    try (JsonWebSocket guesser = openWebSocket("127.0.0.1")) {
      for (int i = 0; i < 5; i++) {
        assertThat(call(guesser, auth("guess-" + i))).isEqualTo(ackAuth(0));
      }
      assertThat(await(guesser.closed())).as("policy violation").isEqualTo((short) 1008);
    }
    try (JsonWebSocket fresh = openWebSocket("127.0.0.1")) {
      assertThat(call(fresh, auth(TOKEN))).isEqualTo(ackAuth(1));
    }
  }

  @Test
  void reconnectingGuesserIsRefusedAtTheUpgrade() {
    int failures = 0;
    while (failures < AuthFailures.MAX_FAILURES) {
      try (JsonWebSocket guesser = openWebSocket("127.0.0.1")) {
        for (int i = 0; i < 5; i++) {
          assertThat(call(guesser, auth("guess-" + failures++))).isEqualTo(ackAuth(0));
        }
        await(guesser.closed());
      }
    }
    Throwable refused = awaitFailure(JsonWebSocket.open(vertx, new WebSocketClientOptions().setLocalAddress("127.0.0.1"),
        JsonWebSocket.options(sut.httpPort()).addHeader("Authorization", "Bearer " + TOKEN)));
    assertThat(refused).isInstanceOf(UpgradeRejectedException.class);
    assertThat(((UpgradeRejectedException) refused).getStatus()).isEqualTo(429);

    try (JsonWebSocket other = openWebSocket(OTHER_ADDRESS)) {
      assertThat(call(other, auth(TOKEN))).as("another address").isEqualTo(ackAuth(1));
    }
    sut.advance(Duration.ofSeconds(AuthFailures.WINDOW_SECONDS));
    try (JsonWebSocket again = openWebSocket("127.0.0.1")) {
      assertThat(call(again, auth(TOKEN))).as("after the window").isEqualTo(ackAuth(1));
    }
  }
}
