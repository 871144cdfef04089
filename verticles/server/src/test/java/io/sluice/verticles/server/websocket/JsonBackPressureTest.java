package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSON side of the bridge under back-pressure, as {@code BackPressureTest} is for TCP: a client
 * that sends commands and never reads their acks must not make the server queue acks without limit.
 * The server stops reading from it, so the client's own writes back up, and what the server holds
 * for it stays within its pending-bytes limit; once the client reads, every ack arrives, in order.
 *
 * <p>Commands and acks have fixed lengths (ids of 7 digits), so the server's figures tell how many
 * acks it has made (bytes read / command length) and how many of their bytes it has handed to the
 * socket (bytes written): the difference is what it holds.
 */
class JsonBackPressureTest {

  private static final int MAX_PENDING_BYTES = 64 * 1024;
  private static final long FIRST_ID = 1_000_000;
  /** Far more than the server may hold for one client plus both kernels' socket buffers. */
  private static final long GIVE_UP_AFTER_COMMANDS = 900_000;
  /** The client's own queue: large, so it backs up only once the server has really stopped reading. */
  private static final int CLIENT_WRITE_QUEUE = 2 * 1024 * 1024;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
      .withLimits(ConnectionLimits.defaults().withMaxPendingBytes(MAX_PENDING_BYTES).withMaxPendingRequests(4096)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  private static String command(long id) {
    return new JsonObject().put("op", "publish").put("channel", "nobody").put("data", "x".repeat(32))
        .put("id", id).encode();
  }

  private static String ackOf(long id) {
    return new JsonObject().put("event", "ack").put("op", "publish").put("status", 0).put("channel", "nobody")
        .put("id", id).encode();
  }

  @Test
  void serverStopsReadingFromAJsonClientThatDoesNotReadItsAcks() {
    JsonWebSocket client = await(JsonWebSocket.open(vertx, JsonWebSocket.options(sut.httpPort())));
    WebSocket socket = client.socket();
    socket.setWriteQueueMaxSize(CLIENT_WRITE_QUEUE);
    client.pause();
    AtomicLong sent = new AtomicLong();
    Promise<Long> backedUp = Promise.promise();
    vertx.runOnContext(v -> writeUntilBackedUp(socket, sent, backedUp));
    long commands = await(backedUp.future());
    assertThat(commands).as("commands written before the client's writes backed up").isLessThan(GIVE_UP_AFTER_COMMANDS);

    ConnectionStats server = sut.server().instance().connections().all().get(0);
    long acksMade = server.readBytes() / command(FIRST_ID).length();
    long held = acksMade * ackOf(FIRST_ID).length() - server.writeBytes();
    assertThat(held).as("ack bytes the server holds for the client (%d acks made)", acksMade)
        .isLessThanOrEqualTo(MAX_PENDING_BYTES + 1024);

    client.resume();
    for (long i = 0; i < commands; i++) {
      JsonObject ack = await(client.next());
      assertThat(ack.encode()).isEqualTo(ackOf(FIRST_ID + i));
    }
    client.close();
  }

  /** Publishes to a channel nobody is on (each answered with an ack of status 0) until the socket backs up. */
  private void writeUntilBackedUp(WebSocket socket, AtomicLong sent, Promise<Long> backedUp) {
    int batch = 0;
    while (!socket.writeQueueFull()) {
      if (sent.get() >= GIVE_UP_AFTER_COMMANDS) {
        backedUp.complete(sent.get());
        return;
      }
      socket.writeTextMessage(command(FIRST_ID + sent.getAndIncrement()));
      if (++batch == 256) {
        // Let the event loop flush and the server push back before writing more.
        vertx.runOnContext(v -> writeUntilBackedUp(socket, sent, backedUp));
        return;
      }
    }
    backedUp.complete(sent.get());
  }
}
