package io.sluice.verticles.server.front;

import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.Socket;
import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --idle-timeout}: a Throttr or WebSocket connection that neither sends nor receives for that
 * long is closed; the WebSocket outlives the HTTP request clock that its upgrade stopped.
 */
class IdleTimeoutTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
      .withDefences(Defences.defaults()
          .withIdleTimeout(Duration.ofMillis(2500))
          .withHttpBounds(Duration.ofMillis(500), Defences.DEFAULT_HTTP_MAX_HEADER_BYTES,
              Defences.DEFAULT_HTTP_MAX_HEADERS)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void idleThrottrAndWebSocketConnectionsAreClosed() throws Exception {
    JsonWebSocket socket = await(JsonWebSocket.open(vertx, sut.httpPort()));
    // Timed from before the subscribe, the server's last use of the socket: the idle close then comes
    // at least 2500 ms later however late this thread runs, while a close by the request clock would
    // come within 500 ms of the upgrade. Timed from the ack's arrival, a test thread late by 500 ms
    // would have measured less than 2000 ms of an idle timeout that worked.
    long beforeLastUse = System.nanoTime();
    await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "idle")));
    assertThat(await(socket.next()).getInteger("status")).isEqualTo(1);
    try (Socket throttr = new Socket("127.0.0.1", sut.tcpPort())) {
      throttr.setSoTimeout(20_000);
      assertThat(throttr.getInputStream().read()).isEqualTo(-1);
    }
    assertThat(await(socket.closed())).isNotNull();
    assertThat(Duration.ofNanos(System.nanoTime() - beforeLastUse))
        .as("the WebSocket lived past the 500 ms request clock, until it was idle").isGreaterThan(Duration.ofMillis(2000));
  }
}
