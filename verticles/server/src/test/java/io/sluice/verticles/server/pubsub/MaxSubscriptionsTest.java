package io.sluice.verticles.server.pubsub;

import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.kit.ChannelFrames;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --max-subscriptions}: a connection holds at most that many subscription records ({@code *}
 * and its own ID among them); a SUBSCRIBE past it answers 00 (an error on the WebSocket), and an
 * UNSUBSCRIBE makes room again. 100,000 SUBSCRIBEs to distinct channels cost the bound, not more.
 */
class MaxSubscriptionsTest {

  private static final int MAX = 50;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withLimits(ConnectionLimits.defaults().withMaxSubscriptions(MAX)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void aThrottrConnectionSubscribesUpToTheCap() {
    Conversation tcp = await(TcpConversation.open(vertx, sut.tcpPort()));
    int answered = 0;
    int refused = 0;
    // 100,000 SUBSCRIBEs in one pipelined stream; two records are * and the connection's own ID.
    int batch = 1000;
    for (int sent = 0; sent < 100_000; sent += batch) {
      byte[][] frames = new byte[batch][];
      for (int i = 0; i < batch; i++) {
        frames[i] = ChannelFrames.subscribe("channel-" + (sent + i));
      }
      await(tcp.send(ChannelFrames.concat(frames)));
      for (byte status : await(tcp.receive(batch))) {
        answered++;
        refused += status == 0 ? 1 : 0;
      }
    }
    assertThat(answered).isEqualTo(100_000);
    assertThat(refused).isEqualTo(100_000 - (MAX - 2));
    assertThat(sut.server().instance().channels().totalSubscriptions()).isEqualTo(MAX);

    await(tcp.send(ChannelFrames.unsubscribe("channel-0")));
    assertThat(await(tcp.receive(1))).containsExactly(1);
    await(tcp.send(ChannelFrames.subscribe("one-more")));
    assertThat(await(tcp.receive(1))).containsExactly(1);
    tcp.close();
  }

  @Test
  void aWebSocketPastTheCapGetsAnError() {
    JsonWebSocket socket = await(JsonWebSocket.open(vertx, sut.httpPort()));
    for (int i = 0; i < MAX - 2; i++) {
      await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "c" + i)));
      assertThat(await(socket.next()).getInteger("status")).isEqualTo(1);
    }
    await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "too-many")));
    assertThat(await(socket.next()).getString("reason")).contains("--max-subscriptions");
    socket.close();
  }
}
