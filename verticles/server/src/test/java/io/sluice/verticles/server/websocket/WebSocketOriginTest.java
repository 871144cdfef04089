package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may open the bridge: a browser page of another site must not drive a user's browser into
 * Sluice, so an upgrade carrying a foreign {@code Origin} is refused with 403 before any WebSocket
 * exists. The page's own origin, origins on the allow-list, and clients that send no Origin
 * (services) are served.
 */
class WebSocketOriginTest {

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;

  @AfterEach
  void stop() {
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  private void serve(List<String> allowedOrigins) {
    sut = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withHttp(HttpSettings.defaults().withAllowedOrigins(allowedOrigins)));
  }

  /**
   * Options carrying exactly this Origin header, or none. Vert.x's client sends the header given in
   * place of its own default; with {@code allowOriginHeader} off it sends none at all, even one given.
   */
  private WebSocketConnectOptions withOrigin(String origin) {
    WebSocketConnectOptions options = JsonWebSocket.options(sut.httpPort());
    return origin == null ? options.setAllowOriginHeader(false) : options.putHeader("Origin", origin);
  }

  private void assertRefused(WebSocketConnectOptions options) {
    List<String> before = connectionIds();
    Future<JsonWebSocket> attempt = JsonWebSocket.open(vertx, options);
    Throwable failure = awaitFailure(attempt);
    assertThat(failure).isInstanceOf(UpgradeRejectedException.class);
    assertThat(((UpgradeRejectedException) failure).getStatus()).isEqualTo(403);
    assertThat(connectionIds()).as("no connection was set up").isSubsetOf(before);
  }

  private void assertServed(WebSocketConnectOptions options) {
    try (JsonWebSocket client = await(JsonWebSocket.open(vertx, options))) {
      assertThat(call(client, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    }
  }


  @ParameterizedTest
  @ValueSource(strings = {"http://evil.example", "https://evil.example:8443", "null", "http://127.0.0.1:1",
      "http://127.0.0.1", "not a uri%%"})
  void foreignOriginIsRefusedWith403(String origin) {
    serve(List.of());
    assertRefused(withOrigin(origin));
  }

  /** The page served by Sluice itself: its Origin names the host and port of the request's Host header. */
  @Test
  void sameOriginIsServed() {
    serve(List.of());
    assertServed(withOrigin("http://127.0.0.1:" + sut.httpPort()));
  }

  /**
   * A dashboard page at {@code http://localhost:PORT} whose script opens {@code ws://127.0.0.1:PORT/ws}
   * (the README's snippet), and the other way round: both loopback names are the dashboard's own origin.
   */
  @Test
  void bothLoopbackNamesAreTheDashboardsOwnOrigin() {
    serve(List.of());
    assertServed(withOrigin("http://localhost:" + sut.httpPort()));
    assertServed(withOrigin("http://[::1]:" + sut.httpPort()));
    assertRefused(withOrigin("http://localhost:" + (sut.httpPort() == 1 ? 2 : 1)));
  }

  /** Vert.x's client adds that same Origin by default, as the vector tests rely on. */
  @Test
  void defaultClientOriginIsServed() {
    serve(List.of());
    assertServed(JsonWebSocket.options(sut.httpPort()));
  }

  @Test
  void noOriginIsServed() {
    serve(List.of());
    assertServed(withOrigin(null));
  }

  @Test
  void originOnTheAllowListIsServedAndOthersAreNot() {
    serve(List.of("https://app.example", "http://localhost:3000"));
    assertServed(withOrigin("https://app.example"));
    assertServed(withOrigin("http://localhost:3000"));
    assertServed(withOrigin("http://127.0.0.1:" + sut.httpPort()));
    assertRefused(withOrigin("https://evil.example"));
    assertRefused(withOrigin("http://localhost:3001"));
  }

  @Test
  void wildcardAllowsAnyOrigin() {
    serve(List.of("*"));
    assertServed(withOrigin("http://evil.example"));
  }

  /** The IDs of the connections the server has set up and not yet dropped. */
  private List<String> connectionIds() {
    return sut.server().instance().connections().all().stream().map(c -> c.idHex()).toList();
  }
}
