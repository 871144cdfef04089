package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.verticles.server.kit.ChannelCalls.call;
import static io.sluice.verticles.server.kit.ChannelFrames.ack;
import static io.sluice.verticles.server.kit.ChannelFrames.jsonSubscribe;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pings are answered with pongs, and pongs are outbound bytes like any other: a client that floods
 * pings and never reads must not make the server queue pongs without limit. It opens the bridge
 * without a token (auth comes later), so this must hold before authentication too. The server stops
 * reading from it, so the client's own writes back up; once it reads, every pong arrives.
 */
class PingFloodTest {

  private static final int MAX_PENDING_BYTES = 64 * 1024;
  private static final Buffer PING = Buffer.buffer("p".repeat(125));
  /**
   * 64 MB of pings, far more than the server may hold for one client plus both kernels' socket
   * buffers and the client's queue: a server that keeps reading takes them all and queues as much
   * in pongs.
   */
  private static final long GIVE_UP_AFTER_PINGS = 64L * 1024 * 1024 / 131;
  /** The client's own queue: large, so it backs up only once the server has really stopped reading. */
  private static final int CLIENT_WRITE_QUEUE = 2 * 1024 * 1024;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
      .withLimits(ConnectionLimits.defaults().withMaxPendingBytes(MAX_PENDING_BYTES).withMaxPendingRequests(4096))
      .withHttp(HttpSettings.defaults().withAuthToken(Optional.of("token"))));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void serverStopsReadingFromAClientThatDoesNotReadItsPongs() {
    JsonWebSocket flooder = await(JsonWebSocket.open(vertx, JsonWebSocket.options(sut.httpPort())));
    WebSocket socket = flooder.socket();
    socket.setWriteQueueMaxSize(CLIENT_WRITE_QUEUE);
    AtomicLong pongs = new AtomicLong();
    Promise<Void> allPongs = Promise.promise();
    AtomicLong sent = new AtomicLong();
    socket.pongHandler(pong -> {
      if (!pong.equals(PING)) {
        allPongs.tryFail("a pong does not echo its ping");
      }
      if (pongs.incrementAndGet() == sent.get()) {
        allPongs.tryComplete();
      }
    });
    flooder.pause();
    Promise<Long> backedUp = Promise.promise();
    vertx.runOnContext(v -> pingUntilBackedUp(socket, sent, backedUp));
    long pings = await(backedUp.future());
    assertThat(pings).as("pings written before the client's writes backed up").isLessThan(GIVE_UP_AFTER_PINGS);

    flooder.resume();
    await(allPongs.future());
    assertThat(pongs.get()).as("every ping answered once the client reads").isEqualTo(pings);

    try (JsonWebSocket fresh = await(JsonWebSocket.open(vertx, JsonWebSocket.options(sut.httpPort())
        .addHeader("Authorization", "Bearer token")))) {
      assertThat(call(fresh, jsonSubscribe("news", 1))).isEqualTo(ack("subscribe", "news", 1, 1));
    }
    flooder.close();
  }

  private void pingUntilBackedUp(WebSocket socket, AtomicLong sent, Promise<Long> backedUp) {
    for (int i = 0; i < 512; i++) {
      if (socket.writeQueueFull() || sent.get() >= GIVE_UP_AFTER_PINGS) {
        backedUp.complete(sent.get());
        return;
      }
      socket.writePing(PING);
      sent.incrementAndGet();
    }
    // Let the event loop flush and the server push back before writing more.
    vertx.runOnContext(v -> pingUntilBackedUp(socket, sent, backedUp));
  }
}
