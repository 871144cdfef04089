package io.sluice.verticles.server.tcp;

import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.session.ThrottrSession;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Flood;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.LiveHeap;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that send requests and never read their replies cost the server about
 * {@code --max-pending-bytes} each (issue 12: about 4.4 MB of heap each against a 1 MB limit: socket
 * reads that Vert.x went on queueing after Sluice had paused the socket, and every request of a
 * read answered whatever its replies came to). The limit counts the requests waiting for replies,
 * the replies assembled and those the socket has not taken; within a read Sluice decodes only as
 * far as the limit, and a pause stops the socket's reads at once. Measured twice, without timing
 * anything: by that accounting per connection, and by the live heap after full collections.
 *
 * <p>One event loop, the default on two cores: the shards answer on the connection's own thread.
 */
class NonReadingClientsTest {

  private static final int MAX_PENDING_BYTES = 64 * 1024;
  private static final int CLIENTS = 10;
  private static final long GIVE_UP_AFTER_BYTES = 256L * 1024 * 1024;
  /** GET "v": 3 request bytes; the reply is 01, TTL unit, TTL, length and the 100-byte value. */
  private static final byte[] GET_V = {0x06, 0x01, 'v'};
  private static final int REPLY = 1 + 1 + 2 + 2 + 100;
  /** Past the limit by at most the GETs decoded before one early dispatch (a sixteenth of it), answered in one write. */
  private static final long MOST_HELD = MAX_PENDING_BYTES + ThrottrSession.WRITE_OVERHEAD
      + (MAX_PENDING_BYTES / 16 / (GET_V.length + ThrottrSession.REQUEST_OVERHEAD) + 1) * (long) REPLY;

  private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withLimits(ConnectionLimits.defaults().withMaxPendingBytes(MAX_PENDING_BYTES)));
  private final Conversation probe = await(TcpConversation.open(vertx, sut.tcpPort()));
  /** Small socket buffers, so that the kernels stop taking replies and requests soon. */
  private final NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true)
      .setReceiveBufferSize(4096).setSendBufferSize(4096));
  private final List<NetSocket> nonReaders = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The clients read at last, so that every connection can close gracefully, after its replies. */
  @AfterEach
  void stop() {
    vertx.runOnContext(v -> nonReaders.forEach(socket -> socket.handler(replies -> { }).resume()));
    await(client.close());
    sut.close();
    await(vertx.close());
  }

  /** SET "v" to 100 bytes, which every GET_V then reads. */
  private void setV() {
    await(probe.send(Hex.bytes("05 04 3c 00 01 64 00 76 " + "41 ".repeat(100))));
    assertThat(await(probe.receive(1))[0]).isEqualTo((byte) 1);
  }

  @Test
  void clientsThatDoNotReadCostTheServerAboutTheLimitEach() {
    setV();
    Buffer chunk = Buffer.buffer();
    for (int i = 0; i < 1_000; i++) {
      chunk.appendBytes(GET_V);
    }
    long before = LiveHeap.bytes();

    for (int i = 0; i < CLIENTS; i++) {
      NetSocket socket = await(client.connect(sut.tcpPort(), "127.0.0.1"));
      socket.pause();
      nonReaders.add(socket);
      assertThat(await(Flood.untilBackedUp(vertx, socket, chunk, GIVE_UP_AFTER_BYTES))).isLessThan(GIVE_UP_AFTER_BYTES);
    }
    List<ConnectionStats> stalled = awaitAllStalled(CLIENTS);

    assertThat(stalled).allSatisfy(connection ->
        assertThat(connection.heldBytes()).isBetween((long) MAX_PENDING_BYTES / 2, MOST_HELD));
    long perClient = (LiveHeap.bytes() - before) / CLIENTS;
    assertThat(perClient).as("live heap per non-reading client").isLessThan(4 * MOST_HELD);
    await(probe.send(Hex.bytes("18")));
    assertThat(await(probe.receive(17))[0]).as("another client is served").isEqualTo((byte) 1);
  }

  /**
   * 200,000 GETs (600 KB) written at once by a client that does not read: their replies would be
   * 21 MB. The server reads only as far as the limit, holds about the limit, and serves a fresh
   * client meanwhile; when the client reads at last, every request is answered.
   */
  @Test
  void twoHundredThousandPipelinedRequestsAreReadOnlyAsFarAsTheLimit() throws Exception {
    setV();
    int requests = 200_000;
    byte[] pipeline = new byte[requests * GET_V.length];
    for (int i = 0; i < requests; i++) {
      System.arraycopy(GET_V, 0, pipeline, i * GET_V.length, GET_V.length);
    }
    try (Socket attacker = new Socket()) {
      attacker.setReceiveBufferSize(4096);
      attacker.connect(new InetSocketAddress("127.0.0.1", sut.tcpPort()));
      attacker.setSoTimeout(30_000);
      Thread writer = new Thread(() -> {
        try {
          attacker.getOutputStream().write(pipeline);
        } catch (IOException closed) {
          // the test failed and closed the socket
        }
      });
      writer.start();

      ConnectionStats stalled = awaitAllStalled(1).get(0);
      assertThat(stalled.readBytes()).as("request bytes read before it stopped").isLessThan(pipeline.length);
      assertThat(stalled.heldBytes()).isLessThanOrEqualTo(MOST_HELD);
      Conversation fresh = await(TcpConversation.open(vertx, sut.tcpPort()));
      await(fresh.send(GET_V));
      assertThat(await(fresh.receive(REPLY))[0]).as("a fresh client is served").isEqualTo((byte) 1);
      fresh.close();

      DataInputStream replies = new DataInputStream(attacker.getInputStream());
      byte[] reply = new byte[REPLY];
      for (int i = 0; i < requests; i++) {
        replies.readFully(reply);
        assertThat(reply[0]).as("reply %d", i).isEqualTo((byte) 1);
      }
      writer.join(30_000);
      assertThat(writer.isAlive()).as("every request was written once the client read").isFalse();
    }
  }

  /**
   * Round trips on the probe until the server has stopped reading from every non-reading client
   * and holds what it will hold for it: the bytes read from each are the same across a round trip,
   * and it holds at least half the limit (it reads again below half). Bounded.
   */
  private List<ConnectionStats> awaitAllStalled(int clients) {
    long deadline = System.nanoTime() + 30_000_000_000L;
    List<Long> lastRead = List.of();
    while (true) {
      List<ConnectionStats> nonReaders = sut.server().instance().connections().all().stream()
          .filter(connection -> connection.port() != TcpConversation.localPort(probe)).toList();
      List<Long> read = nonReaders.stream().map(ConnectionStats::readBytes).toList();
      boolean stalled = nonReaders.size() == clients && read.equals(lastRead)
          && nonReaders.stream().allMatch(connection -> connection.heldBytes() >= MAX_PENDING_BYTES / 2);
      if (stalled || System.nanoTime() > deadline) {
        assertThat(stalled).as("the server stopped reading from every non-reading client").isTrue();
        return nonReaders;
      }
      lastRead = read;
      await(probe.send(Hex.bytes("18")));
      await(probe.receive(17));
    }
  }
}
