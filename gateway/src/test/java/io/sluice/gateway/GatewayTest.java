package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.SluiceConfig;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The process as `java -jar sluice.jar` runs it: configuration in, a Throttr server on a real socket out. */
class GatewayTest {

  private final Vertx client = Vertx.vertx();
  private Gateway gateway;

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.stop();
    }
    client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void startsFromFlagsAndEnvironmentAndServesThrottr() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--value-size", "uint8"),
        Map.of("SLUICE_SHARDS", "3"));
    SluiceConfig config = ((Invocation.Run) invocation).config();
    gateway = Gateway.start(config);
    assertThat(gateway.server().instance().shards()).isEqualTo(3);

    NetClient netClient = client.createNetClient();
    NetSocket socket = netClient.connect(gateway.server().tcpPort(), "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    Promise<Buffer> replies = Promise.promise();
    Buffer received = Buffer.buffer();
    socket.handler(data -> {
      received.appendBuffer(data);
      if (received.length() >= 5) {
        replies.tryComplete(received);
      }
    });
    // uint8 INSERT "abc" quota 10, 60 s; QUERY "abc".
    socket.write(Buffer.buffer(new byte[] {0x01, 0x0a, 0x04, 0x3c, 0x03, 'a', 'b', 'c', 0x02, 0x03, 'a', 'b', 'c'}));
    Buffer bytes = replies.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(bytes.getBytes()).containsExactly(0x01, 0x01, 0x0a, 0x04, 0x3b);
    netClient.close();
  }

  /** The page as the jar serves it (the webui on the classpath): never framed, no foreign scripts, no sniffing. */
  @Test
  void theDashboardPageComesWithSecurityHeaders() throws Exception {
    gateway = Gateway.start(((Invocation.Run) ConfigLoader.load(
        List.of("--tcp-port", "0", "--http-port", "0", "--udp-port", "0", "--grpc-port", "0"), Map.of())).config());
    var http = java.net.http.HttpClient.newHttpClient();
    var page = http.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + gateway.server().httpPort() + "/")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString()
        .contains("script-src 'self'").contains("frame-ancestors 'none'");
    assertThat(page.headers().firstValue("X-Frame-Options")).contains("DENY");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
  }

  /**
   * The UDP endpoint as the jar runs it, on epoll: requests arriving in a burst are read several per
   * system call (recvmmsg) and their replies leave together (sendmmsg); every one is answered, in
   * order; datagrams longer than the read slice are cut by the kernel, and still only their first
   * 1000 bytes count.
   */
  @Test
  void servesUdpOnEpollInBursts() throws Exception {
    Assumptions.assumeTrue(Epoll.isAvailable(), "the epoll transport needs Linux");
    Path rules = Path.of(System.getProperty("basedir", "."), "..", "deploy", "rules", "musicbrainz.yaml");
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0",
        "--rules", rules.toString()), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());
    assertThat(gateway.transport()).isEqualTo("epoll");

    try (DatagramSocket udp = new DatagramSocket()) {
      udp.connect(new InetSocketAddress("127.0.0.1", gateway.server().udpPort()));
      udp.setSoTimeout(10_000);
      // Within what the client socket's default receive buffer holds (~250 small datagrams).
      int burst = 200;
      for (int id = 1; id <= burst; id++) {
        send(udp, id + " over_limit ws ip=198.18.0.1");
      }
      for (int id = 1; id <= burst; id++) {
        // 22 per 20 s per IP: the first twenty are allowed, and far past the limit all are refused.
        String reply = receive(udp);
        assertThat(reply).as("replies in request order").startsWith(id + " ok ").endsWith(" 22.0 20");
        if (id <= 20 || id > 100) {
          assertThat(reply).startsWith(id + " ok " + (id <= 20 ? "N" : "Y") + " ");
        }
      }
      for (int length : new int[] {1500, 3000}) {
        send(udp, "get_stats " + "x".repeat(length));
        assertThat(receive(udp)).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=" + "x".repeat(990));
      }
    }
  }

  /**
   * {@code --udp-max-stats-keys} caps the keys whose statistics the UDP front holds: with 5, the
   * sixth new key makes the least recently used one forgotten ({@code get_stats} answers zeros).
   */
  @Test
  void udpStatisticsAreHeldForAtMostTheOptionsKeys() throws Exception {
    Path rules = Path.of(System.getProperty("basedir", "."), "..", "deploy", "rules", "musicbrainz.yaml");
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0",
        "--rules", rules.toString(), "--udp-max-stats-keys", "5"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());

    try (DatagramSocket udp = new DatagramSocket()) {
      udp.connect(new InetSocketAddress("127.0.0.1", gateway.server().udpPort()));
      udp.setSoTimeout(10_000);
      for (int i = 0; i < 10; i++) {
        send(udp, "over_limit u" + i + " ip=132.185.1.1");
        assertThat(receive(udp)).isEqualTo("ok N 0.0 300.0 20");
      }
      send(udp, "get_stats u9 cust=bbc");
      assertThat(receive(udp)).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=u9 cust=bbc");
      send(udp, "get_stats u4 cust=bbc");
      assertThat(receive(udp)).as("forgotten: the five keys used since are held").isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=u4 cust=bbc");
    }
  }

  private static void send(DatagramSocket udp, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    udp.send(new DatagramPacket(bytes, bytes.length));
  }

  private static String receive(DatagramSocket udp) throws IOException {
    DatagramPacket packet = new DatagramPacket(new byte[4096], 4096);
    udp.receive(packet);
    return new String(packet.getData(), 0, packet.getLength(), StandardCharsets.US_ASCII);
  }

  @Test
  void helpListsEveryOptionWithoutStartingAnything() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--help"), Map.of());
    assertThat(invocation).isInstanceOf(Invocation.ShowHelp.class);
    assertThat(((Invocation.ShowHelp) invocation).text()).contains("--tcp-port", "--value-size", "--shards",
        "--max-frame", "--config", "SLUICE_TCP_PORT");
  }
}
