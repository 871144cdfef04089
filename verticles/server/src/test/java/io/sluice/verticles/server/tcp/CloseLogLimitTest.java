package io.sluice.verticles.server.tcp;

import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.Socket;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A client that opens bad connections in a loop gets each closed, but the log keeps a bounded pace. */
class CloseLogLimitTest {

  private static final int BAD_CONNECTIONS = 60;
  private static final int FRONT_LOOPS = 2;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void closeLinesAreRateLimitedPerEventLoop() throws Exception {
    try (LogLines log = new LogLines()) {
      for (int i = 0; i < BAD_CONNECTIONS; i++) {
        try (Socket bad = new Socket("127.0.0.1", sut.tcpPort())) {
          bad.setSoTimeout(10_000);
          bad.getOutputStream().write(0xff);
          assertThat(bad.getInputStream().read()).isEqualTo(-1);
        }
      }
      // The test's clock stands still: one window for the whole run.
      assertThat(log.containing("unknown request type 0xff"))
          .hasSizeBetween(FrontLoop.CLOSE_LINES_PER_SECOND, FRONT_LOOPS * FrontLoop.CLOSE_LINES_PER_SECOND);
    }
    ThrottrClient fresh = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(sut.tcpPort())));
    assertThat(await(fresh.insert("after", 1, TtlUnit.SECONDS, 60))).isTrue();
    await(fresh.close());
  }
}
