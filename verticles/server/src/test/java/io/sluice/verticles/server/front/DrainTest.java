package io.sluice.verticles.server.front;

import io.sluice.verticles.server.kit.KeyFrames;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.server.kit.Poll;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The SIGTERM drain: listeners stop accepting, every request already read is answered, then the
 * connection is closed; a client that does not read its answers is closed at the timeout.
 */
class DrainTest {

  private static final int REQUESTS = 2000;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void whatWasReadIsAnsweredThenTheConnectionClosesAndNoneIsAccepted() throws Exception {
    ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
    for (int i = 0; i < REQUESTS; i++) {
      pipeline.write(KeyFrames.insert("drain-" + i, 5, 60));
    }
    byte[] requests = pipeline.toByteArray();
    try (Socket client = new Socket("127.0.0.1", sut.tcpPort())) {
      client.setSoTimeout(20_000);
      client.getOutputStream().write(requests);
      Poll.until("the server has read every request", () -> sut.server().instance().connections().all().stream()
          .mapToLong(ConnectionStats::readBytes).sum() == requests.length);

      var drained = sut.server().drain(Duration.ofSeconds(20));
      InputStream in = client.getInputStream();
      byte[] replies = in.readAllBytes();
      assertThat(replies).as("one status byte per INSERT, then the close").hasSize(REQUESTS);
      await(drained);
    }
    assertThat(catchThrowable(() -> {
      try (Socket late = new Socket("127.0.0.1", sut.tcpPort())) {
        late.setSoTimeout(5_000);
        assertThat(late.getInputStream().read()).isEqualTo(-1);
      }
    })).satisfiesAnyOf(
        refused -> assertThat(refused).isInstanceOf(ConnectException.class),
        nothing -> assertThat(nothing).isNull());
  }

  /**
   * The client writes until the server closes it and never reads, so the server's replies fill
   * both sockets' buffers whatever size the kernel gives them, and the server stops reading.
   */
  @Test
  void aClientThatDoesNotReadIsClosedAtTheTimeout() throws Exception {
    try (Socket client = new Socket()) {
      client.setReceiveBufferSize(4096);
      client.connect(new InetSocketAddress("127.0.0.1", sut.tcpPort()));
      ByteArrayOutputStream chunk = new ByteArrayOutputStream();
      for (int i = 0; i < 10_000; i++) {
        chunk.write(KeyFrames.query("absent"));
      }
      byte[] queries = chunk.toByteArray();
      Thread writer = new Thread(() -> {
        try {
          while (true) {
            client.getOutputStream().write(queries);
          }
        } catch (java.io.IOException closed) {
          // the server closed the connection at the drain's timeout
        }
      });
      writer.start();
      Poll.until("the server stopped reading from the client", () -> sut.server().instance().connections().all()
          .stream().anyMatch(connection -> connection.heldBytes() > 0));
      await(sut.server().drain(Duration.ofMillis(500)));
      writer.join(20_000);
      assertThat(writer.isAlive()).as("the writer saw the close").isFalse();
    }
  }
}
