package io.sluice.verticles.server.http;

import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that hold connections without finishing what they send: slowloris headers, a body that
 * never completes, an idle socket; and requests whose headers are too many or too large. Each is
 * closed within its bound while everyone else is served.
 */
class SlowClientsTest {

  private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(1000);

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withDefences(Defences.defaults().withHttpBounds(REQUEST_TIMEOUT, 8192, 20)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  private Socket open(int port) throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    return socket;
  }

  private void assertOthersServed() throws IOException {
    assertThat(RawHttp.exchange(sut.httpPort(), "GET", "/health", null, "Host: 127.0.0.1").status()).isEqualTo(200);
  }

  /** Reads until the server closes; what the server sent before closing. */
  private static String untilClosed(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    try {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (java.net.SocketException reset) {
      return "";
    }
  }

  @Test
  void headersDribbledAByteAtATimeAreCutOffAtTheRequestTimeout() throws Exception {
    try (LogLines log = new LogLines(); Socket slow = open(sut.httpPort())) {
      byte[] head = ("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + "a".repeat(200) + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII);
      OutputStream out = slow.getOutputStream();
      CompletableFuture<Integer> sent = CompletableFuture.supplyAsync(() -> {
        int written = 0;
        try {
          for (byte b : head) {
            out.write(b);
            out.flush();
            written++;
            TimeUnit.MILLISECONDS.sleep(20); // the attacker's pace, not synchronisation
          }
        } catch (IOException | InterruptedException closed) {
          // the server closed the connection
        }
        return written;
      });
      assertOthersServed();
      assertThat(untilClosed(slow)).isEmpty();
      assertThat(sent.get(30, TimeUnit.SECONDS)).as("bytes sent before the close").isLessThan(head.length);
      assertThat(log.containing("no complete request within 1000 ms (--http-request-timeout)")).hasSize(1);
    }
  }

  @Test
  void aBodyThatNeverCompletesIsCutOff() throws Exception {
    try (Socket slow = open(sut.httpPort())) {
      slow.getOutputStream().write(("POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: 100\r\n\r\n{\"policy\":").getBytes(StandardCharsets.US_ASCII));
      assertOthersServed();
      assertThat(untilClosed(slow)).isEmpty();
    }
  }

  @Test
  void aConnectionThatSendsNothingIsClosedAndSoIsAnIdleKeptAliveOne() throws Exception {
    try (Socket silent = open(sut.httpPort()); Socket keptAlive = open(sut.httpPort())) {
      keptAlive.getOutputStream().write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(untilClosed(keptAlive)).startsWith("HTTP/1.1 200");
      assertThat(untilClosed(silent)).isEmpty();
    }
  }

  @Test
  void aConnectionInUseOutlivesTheRequestTimeout() throws Exception {
    try (Socket busy = open(sut.httpPort())) {
      byte[] request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
      // Three timeouts' worth of requests, each well within the timeout of the previous answer: the
      // clock restarts at every answer, so the connection is never closed under them.
      for (int i = 0; i < 12; i++) {
        busy.getOutputStream().write(request);
        assertThat(RawHttp.read(busy.getInputStream()).status()).isEqualTo(200);
        TimeUnit.MILLISECONDS.sleep(REQUEST_TIMEOUT.toMillis() / 4); // the client's pace, not synchronisation
      }
      busy.getOutputStream().write(request);
      assertThat(RawHttp.read(busy.getInputStream()).status()).isEqualTo(200);
    }
  }

  @Test
  void tooManyHeaderLinesGet431() throws Exception {
    String[] headers = new String[25];
    headers[0] = "Host: 127.0.0.1";
    for (int i = 1; i < headers.length; i++) {
      headers[i] = "X-Header-" + i + ": " + i;
    }
    RawHttp.Answer answer = RawHttp.exchange(sut.httpPort(), "GET", "/health", null, headers);
    assertThat(answer.status()).isEqualTo(431);
    assertThat(answer.json().getString("error")).contains("--http-max-headers");
    assertOthersServed();
  }

  /** Lines, as documented: a header repeated past the limit counts each time, not once per name. */
  @Test
  void repeatedHeaderLinesCountEachTime() throws Exception {
    String[] headers = new String[25];
    headers[0] = "Host: 127.0.0.1";
    for (int i = 1; i < headers.length; i++) {
      headers[i] = "X-Same: " + i;
    }
    assertThat(RawHttp.exchange(sut.httpPort(), "GET", "/health", null, headers).status()).isEqualTo(431);
    assertOthersServed();
  }

  @Test
  void headersOf100KilobytesAreRefusedAndTheConnectionClosed() throws Exception {
    try (Socket big = open(sut.httpPort())) {
      OutputStream out = big.getOutputStream();
      out.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      try {
        for (int i = 0; i < 100; i++) {
          out.write(("X-Big-" + i + ": " + "b".repeat(1000) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      } catch (IOException closedEarly) {
        // the server may close before the rest is written
      }
      String answer = untilClosed(big);
      assertThat(answer).satisfiesAnyOf(
          text -> assertThat(text).startsWith("HTTP/1.1 431"),
          text -> assertThat(text).isEmpty());
    }
    assertOthersServed();
  }

  @Test
  void aWebSocketOutlivesTheRequestClock() {
    JsonWebSocket socket = await(JsonWebSocket.open(vertx, sut.httpPort()));
    // Three request timeouts of silence, timed by the server's own timers.
    await(Future.<Void>future(waited -> vertx.setTimer(3 * REQUEST_TIMEOUT.toMillis(), id -> waited.complete())));
    await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "still-here")));
    assertThat(await(socket.next()).getInteger("status")).isEqualTo(1);
    socket.close();
  }
}
