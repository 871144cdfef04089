package io.sluice.verticles.websocket;

import io.sluice.throttr.codec.ValueSize;
import io.sluice.verticles.kit.LogCapture;
import io.sluice.verticles.kit.RawWebSocket;
import io.sluice.verticles.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.util.function.Consumer;
import java.util.logging.LogRecord;

import static io.sluice.verticles.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that goes away without a close handshake (a closed tab, a lost network) is routine:
 * Sluice forgets the connection and logs it at most at DEBUG, without a stack trace.
 */
class WebSocketDropTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, ValueSize.UINT16);
  private final LogCapture log = new LogCapture("io.sluice");

  @AfterEach
  void stop() {
    log.close();
    sut.close();
    await(vertx.close());
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
    RawWebSocket client = RawWebSocket.open(sut.httpPort());
    assertThat(client.status()).isEqualTo(101);
    client.sendText("{\"op\":\"subscribe\",\"channel\":\"news\"}");
    client.read();
    beforeClose.accept(client.socket());
    client.close();
    awaitNoConnection();
    assertThat(log.aboveDebug()).extracting(LogRecord::getMessage).isEmpty();
    assertThat(log.records()).allSatisfy(record -> assertThat(record.getThrown()).isNull());
    try (RawWebSocket fresh = RawWebSocket.open(sut.httpPort())) {
      assertThat(fresh.status()).isEqualTo(101);
    }
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
