package io.sluice.verticles.server.tcp;

import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.kit.Flood;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that writes requests and never reads its replies must not make the server buffer without
 * limit: the server stops reading from it, so the client's own writes back up. Once the client
 * reads, every reply arrives, in order.
 */
class BackPressureTest {

  private static final int MAX_PENDING_BYTES = 64 * 1024;
  private static final int MAX_PENDING_REQUESTS = 4096;
  /** Far more than the server may hold for one client plus both kernels' socket buffers. */
  private static final long GIVE_UP_AFTER_BYTES = 256L * 1024 * 1024;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withLimits(
      ConnectionLimits.defaults().withMaxPendingBytes(MAX_PENDING_BYTES).withMaxPendingRequests(MAX_PENDING_REQUESTS)));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void serverStopsReadingFromAClientThatDoesNotReadAndCatchesUpLater() {
    NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
    NetSocket socket = await(client.connect(sut.tcpPort(), "127.0.0.1"));
    socket.pause();
    // 1,000 QUERYs of a missing key per write: 6 request bytes, 1 reply byte ("00") each.
    Buffer chunk = Buffer.buffer();
    for (int i = 0; i < 1_000; i++) {
      chunk.appendBytes(new byte[] {0x02, 0x03, 'n', 'o', 'p'});
    }
    long sent = await(Flood.untilBackedUp(vertx, socket, chunk, GIVE_UP_AFTER_BYTES));
    assertThat(sent).as("bytes written before the client's writes backed up").isLessThan(GIVE_UP_AFTER_BYTES);

    long requests = sent / 5;
    AtomicLong received = new AtomicLong();
    Promise<Void> allReplies = Promise.promise();
    socket.handler(data -> {
      for (int i = 0; i < data.length(); i++) {
        if (data.getByte(i) != 0) {
          allReplies.tryFail("reply " + (received.get() + i) + " is not 00");
        }
      }
      if (received.addAndGet(data.length()) == requests) {
        allReplies.tryComplete();
      }
    });
    socket.resume();
    await(allReplies.future());
    assertThat(received.get()).isEqualTo(requests);
    await(client.close());
  }
}
