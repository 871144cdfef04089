package io.sluice.verticles.server.front;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.Socket;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --max-connections} counts Throttr and HTTP connections (a WebSocket is one) together:
 * one too many is refused at once (closed, or 503 on HTTP), counted and logged once, and the
 * connections already open go on being served.
 */
class MaxConnectionsTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withDefences(Defences.defaults().withMaxConnections(3)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  private ThrottrClient throttr() {
    return await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(sut.tcpPort())));
  }

  @Test
  void pastTheLimitNewConnectionsAreRefusedAndOpenOnesKeepWorking() throws Exception {
    ThrottrClient first = throttr();
    ThrottrClient second = throttr();
    JsonWebSocket socket = await(JsonWebSocket.open(vertx, sut.httpPort()));
    Poll.until("three connections are counted", () -> sut.server().instance().connections().size() == 3);

    try (LogLines log = new LogLines()) {
      try (Socket refused = new Socket("127.0.0.1", sut.tcpPort())) {
        refused.setSoTimeout(10_000);
        assertThat(refused.getInputStream().read()).as("closed without a byte").isEqualTo(-1);
      }
      RawHttp.Answer health = RawHttp.exchange(sut.httpPort(), "GET", "/health", null, "Host: 127.0.0.1");
      assertThat(health.status()).isEqualTo(503);
      assertThat(health.json().getString("error")).contains("--max-connections");
      RawHttp.Answer upgrade = RawHttp.exchange(sut.httpPort(), "GET", "/ws", null,
          RawHttp.upgrade("Host: 127.0.0.1"));
      assertThat(upgrade.status()).isEqualTo(503);

      assertThat(log.containing("--max-connections")).as("one line for three refusals within a second").hasSize(1);
    }
    assertThat(sut.metrics().get("sluice.connections.rejected").counter().count()).isEqualTo(3);

    assertThat(await(first.insert("still-served", 5, TtlUnit.SECONDS, 60))).isTrue();
    assertThat(await(second.query("still-served")).quota()).isEqualTo(5);
    await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "news")));
    assertThat(await(socket.next()).getInteger("status")).isEqualTo(1);

    await(first.close());
    Poll.until("a place is free again", () -> {
      ThrottrClient next = throttr();
      boolean served = await(next.query("still-served").map(reply -> reply.quota() == 5).otherwise(false));
      await(next.close());
      return served;
    });
    await(second.close());
    socket.close();
  }
}
