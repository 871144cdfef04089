package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.BridgeClients;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.Jwts;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.wsauth.AnonymousMode;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.SluiceServer;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonPublish;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --ws-publish-rate}: a check-API policy of 2 publishes per 10 s, counted per user across
 * its connections and per connection for anonymous clients; the clock is moved by hand.
 */
class PublishRateTest {

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;
  private final BridgeClients clients = new BridgeClients(vertx, () -> sut.httpPort());
  @TempDir
  Path dir;

  @AfterEach
  void stop() {
    clients.close();
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  private void start() throws IOException {
    Path secret = Files.writeString(dir.resolve("ws-secret"), Jwts.SECRET);
    Policies policies = Policies.of(
        new Policy("ws-publish", new FixedWindow(WindowPolicy.of(new Quota("default", 2, Duration.ofSeconds(10))))));
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withPolicies(policies).withHttp(HttpSettings.defaults()
        .withWebSocket(WebSocketAccessSettings.defaults().withJwtSecretFile(Optional.of(secret))
            .withAnonymous(Optional.of(AnonymousMode.ALL)).withPublishPolicy(Optional.of("ws-publish")))));
  }

  private JsonWebSocket user(String subject) {
    return clients.user(subject, Jwts.grants(List.of(), List.of("room")));
  }

  private static JsonObject limited(long retryAfterMillis, Object id) {
    return new JsonObject().put("event", "error").put("op", "publish").put("reason", "rate limited")
        .put("retry_after_ms", retryAfterMillis).put("id", id);
  }

  @Test
  void aUsersPublishesAreLimitedAcrossItsConnectionsUntilTheWindowEnds() throws IOException {
    start();
    JsonWebSocket first = user("alice");
    JsonWebSocket second = user("alice");
    assertThat(call(first, jsonPublish("room", "1", 1))).isEqualTo(ack("publish", "room", 0, 1));
    assertThat(call(second, jsonPublish("room", "2", 2))).isEqualTo(ack("publish", "room", 0, 2));
    assertThat(call(first, jsonPublish("room", "3", 3))).isEqualTo(limited(10_000, 3));
    assertThat(call(user("bob"), jsonPublish("room", "4", 4))).as("another user's own count")
        .isEqualTo(ack("publish", "room", 0, 4));
    sut.advance(Duration.ofSeconds(10));
    assertThat(call(second, jsonPublish("room", "5", 5))).isEqualTo(ack("publish", "room", 0, 5));
  }

  @Test
  void anonymousClientsAreLimitedPerConnection() throws IOException {
    start();
    JsonWebSocket one = clients.open("/ws");
    JsonWebSocket other = clients.open("/ws");
    call(one, jsonPublish("room", "1", 1));
    call(one, jsonPublish("room", "2", 2));
    assertThat(call(one, jsonPublish("room", "3", 3)).getString("reason")).isEqualTo("rate limited");
    assertThat(call(other, jsonPublish("room", "4", 4))).isEqualTo(ack("publish", "room", 0, 4));
  }

  @Test
  void anUnknownPolicyStopsTheStart() throws IOException {
    Path secret = Files.writeString(dir.resolve("ws-secret"), Jwts.SECRET);
    Throwable refused = awaitFailure(SluiceServer.start(vertx, SluiceUnderTest.defaults().withHttp(HttpSettings.defaults()
        .withWebSocket(WebSocketAccessSettings.defaults().withJwtSecretFile(Optional.of(secret))
            .withPublishPolicy(Optional.of("missing")))), SluiceUnderTest.VERSION, new ManualClock(),
        SluiceMetrics.newRegistry()));
    assertThat(refused).hasMessageContaining("missing");
  }
}
