package io.sluice.verticles.server.websocket;

import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.kit.RawWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.logging.LogRecord;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How WebSocket connections end. Bad input is closed with the status RFC 6455 §7.4.1 gives its
 * cause, so a client can tell what it did wrong: 1009 for a frame or message over the limit
 * ({@code --max-frame}), 1002 for a protocol error, 1007 for a text message that is not UTF-8. A
 * client that goes away without a close handshake (a closed tab, a lost network) is routine:
 * Sluice forgets the connection and logs it at most at DEBUG, without a stack trace. After each, a
 * fresh client is served.
 */
class WebSocketClosesTest {

  private static final int MAX_FRAME = 8096;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withLimits(ConnectionLimits.defaults().withMaxFrame(MAX_FRAME)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  private RawWebSocket open() throws IOException {
    RawWebSocket client = RawWebSocket.open(sut.httpPort());
    assertThat(client.status()).isEqualTo(101);
    return client;
  }

  /** A fresh client subscribes and is acknowledged. */
  private void assertFreshClientServed() throws IOException {
    try (RawWebSocket fresh = open()) {
      fresh.sendText("{\"op\":\"subscribe\",\"channel\":\"news\",\"id\":7}");
      RawWebSocket.Frame ack = fresh.read();
      assertThat(new JsonObject(ack.text()).getInteger("status")).as(ack.text()).isEqualTo(1);
    }
  }

  private void assertClosedWith(RawWebSocket client, int code) throws IOException {
    try (client) {
      assertThat(client.awaitCloseCode()).isEqualTo(code);
    }
    assertFreshClientServed();
  }

  @Test
  void frameOverTheLimitIsClosedWith1009() throws IOException {
    RawWebSocket client = open();
    client.sendRaw(RawWebSocket.BINARY, true, 0, true, new byte[16], MAX_FRAME + 1);
    assertClosedWith(client, 1009);
  }

  /**
   * A 10 MB frame, sent in full by a client that goes on writing: refused at its header, before
   * any of it is held, with 1009 (the writer sees the connection end).
   */
  @Test
  void tenMegabyteFrameIsClosedWith1009() throws Exception {
    RawWebSocket client = open();
    byte[] payload = new byte[10 << 20];
    Thread writer = new Thread(() -> {
      try {
        client.sendRaw(RawWebSocket.BINARY, true, 0, true, payload, payload.length);
      } catch (IOException closed) {
        // the server closed the connection before taking the whole frame
      }
    });
    writer.start();
    assertClosedWith(client, 1009);
    writer.join(30_000);
    assertThat(writer.isAlive()).isFalse();
  }

  @Test
  void messageOverTheLimitInSeveralFramesIsClosedWith1009() throws IOException {
    RawWebSocket client = open();
    byte[] part = new byte[MAX_FRAME / 2];
    Arrays.fill(part, (byte) ' ');
    client.send(RawWebSocket.TEXT, false, part);
    client.send(RawWebSocket.CONTINUATION, false, part);
    client.send(RawWebSocket.CONTINUATION, true, part);
    assertClosedWith(client, 1009);
  }

  @Test
  void reservedOpcodeIsClosedWith1002() throws IOException {
    RawWebSocket client = open();
    client.sendRaw(0x3, true, 0, true, new byte[] {1}, 1);
    assertClosedWith(client, 1002);
  }

  @Test
  void unmaskedClientFrameIsClosedWith1002() throws IOException {
    RawWebSocket client = open();
    client.sendRaw(RawWebSocket.TEXT, true, 0, false, "{}".getBytes(StandardCharsets.UTF_8), 2);
    assertClosedWith(client, 1002);
  }

  @Test
  void continuationWithoutAStartIsClosedWith1002() throws IOException {
    RawWebSocket client = open();
    client.send(RawWebSocket.CONTINUATION, true, "{}".getBytes(StandardCharsets.UTF_8));
    assertClosedWith(client, 1002);
  }

  @Test
  void textThatIsNotUtf8IsClosedWith1007() throws IOException {
    RawWebSocket client = open();
    client.send(RawWebSocket.TEXT, true, new byte[] {'{', '"', (byte) 0xC3, 0x28, '"', '}'});
    assertClosedWith(client, 1007);
  }

  /** A character may straddle two frames of one message: only the whole message must be UTF-8. */
  @Test
  void characterSplitAcrossFramesIsValidText() throws IOException {
    try (RawWebSocket client = open()) {
      byte[] command = "{\"op\":\"subscribe\",\"channel\":\"café\",\"id\":1}".getBytes(StandardCharsets.UTF_8);
      int split = new String(command, StandardCharsets.UTF_8).indexOf('é') + 1;
      client.send(RawWebSocket.TEXT, false, Arrays.copyOfRange(command, 0, split));
      client.send(RawWebSocket.CONTINUATION, true, Arrays.copyOfRange(command, split, command.length));
      JsonObject ack = new JsonObject(client.read().text());
      assertThat(ack.getString("channel")).isEqualTo("café");
      assertThat(ack.getInteger("status")).isEqualTo(1);
    }
  }

  @Test
  void droppedConnectionIsNotAnError() throws IOException {
    assertDropIsRoutine(socket -> { });
  }

  /** SO_LINGER 0: the close sends a reset, which the server reads as "connection reset by peer". */
  @Test
  void resetConnectionIsNotAnError() throws IOException {
    assertDropIsRoutine(socket -> {
      try {
        socket.setSoLinger(true, 0);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
  }

  private void assertDropIsRoutine(Consumer<Socket> beforeClose) throws IOException {
    try (LogCapture log = new LogCapture("io.sluice")) {
      RawWebSocket client = RawWebSocket.open(sut.httpPort());
      assertThat(client.status()).isEqualTo(101);
      client.sendText("{\"op\":\"subscribe\",\"channel\":\"news\"}");
      client.read();
      beforeClose.accept(client.socket());
      client.close();
      awaitNoConnection();
      assertThat(log.aboveDebug()).extracting(LogRecord::getMessage).isEmpty();
      assertThat(log.records()).allSatisfy(record -> assertThat(record.getThrown()).isNull());
    }
    assertFreshClientServed();
  }

  /** The server learns of the drop asynchronously; its registry shows when it has handled it. */
  private void awaitNoConnection() {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!sut.server().instance().connections().all().isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(sut.server().instance().connections().all()).isEmpty();
  }
}
