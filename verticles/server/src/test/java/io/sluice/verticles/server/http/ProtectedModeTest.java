package io.sluice.verticles.server.http;

import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.udp.UdpSettings;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Listeners bound beyond loopback with no token and no client CA: a WARNING at start, and writes
 * through the dashboard API and the WebSocket bridge from loopback clients only, unless protected
 * mode is off or clients authenticate. The "remote" client is this machine on its network address,
 * which the server sees as a non-loopback peer.
 */
class ProtectedModeTest {

  private static final String CREATE = "{\"key\":\"k\",\"type\":\"counter\",\"quota\":10,\"ttl\":60,\"ttlUnit\":\"seconds\"}";
  private static String networkAddress;

  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> opened = new ArrayList<>();

  @BeforeAll
  static void findTheNetworkAddress() throws Exception {
    for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress address : Collections.list(network.getInetAddresses())) {
        if (network.isUp() && address instanceof Inet4Address && !address.isLoopbackAddress()
            && !address.isLinkLocalAddress()) {
          networkAddress = address.getHostAddress();
        }
      }
    }
    assumeTrue(networkAddress != null, "this machine has no IPv4 address beyond loopback");
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    await(vertx.close());
  }

  private SluiceUnderTest exposed(Optional<String> token, boolean protectedMode) {
    SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withHttp(HttpSettings.defaults().withListener("0.0.0.0", 0).withAuthToken(token))
        .withTcp(new TcpSettings("0.0.0.0", 0))
        .withUdp(UdpSettings.defaults().withListener("0.0.0.0", 0))
        .withDefences(Defences.defaults().withProtectedMode(protectedMode)));
    opened.add(sut);
    return sut;
  }

  private static RawHttp.Answer create(String from, int port, String... extra) throws Exception {
    List<String> headers = new ArrayList<>(List.of("Host: " + from, "Content-Type: application/json"));
    headers.addAll(List.of(extra));
    return RawHttp.exchange(from, port, "POST", "/api/keys", CREATE, headers.toArray(String[]::new));
  }

  @Test
  void exposedWithoutAuthenticationItWarnsAndTakesWritesFromLoopbackOnly() throws Exception {
    SluiceUnderTest sut;
    try (LogLines log = new LogLines()) {
      sut = exposed(Optional.empty(), true);
      assertThat(log.containing("listen beyond loopback with neither --auth-token nor --tls-client-ca")).singleElement()
          .asString().contains("Throttr on 0.0.0.0").contains("Protected mode: the dashboard API");
    }
    RawHttp.Answer remote = create(networkAddress, sut.httpPort());
    assertThat(remote.status()).isEqualTo(403);
    assertThat(remote.json().getString("error")).isEqualTo(ProtectedMode.REASON);
    assertThat(RawHttp.exchange(networkAddress, sut.httpPort(), "GET", "/api/overview", null,
        "Host: " + networkAddress).status()).as("reads stay open").isEqualTo(200);
    assertThat(create("127.0.0.1", sut.httpPort()).status()).isEqualTo(201);

    JsonWebSocket socket = await(JsonWebSocket.open(vertx, new WebSocketConnectOptions()
        .setHost(networkAddress).setPort(sut.httpPort()).setURI("/ws")));
    opened.add(socket);
    await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "news")));
    assertThat(await(socket.next()).getInteger("status")).isEqualTo(1);
    await(socket.send(new JsonObject().put("op", "publish").put("channel", "news").put("data", "x")));
    assertThat(await(socket.next()).getString("reason")).isEqualTo(ProtectedMode.REASON);
    await(socket.sendBinary(new byte[] {0x02, 0x01, 'k'}));
    assertThat(await(socket.closed())).isEqualTo((short) 1008);
  }

  @Test
  void withProtectedModeOffRemoteClientsWrite() throws Exception {
    assertThat(create(networkAddress, exposed(Optional.empty(), false).httpPort()).status()).isEqualTo(201);
  }

  @Test
  void withATokenRemoteClientsThatPresentItWrite() throws Exception {
    assertThat(create(networkAddress, exposed(Optional.of("s3cret"), true).httpPort(), "Authorization: Bearer s3cret")
        .status()).isEqualTo(201);
  }

  @Test
  void onLoopbackNothingIsSaid() {
    try (LogLines log = new LogLines()) {
      opened.add(new SluiceUnderTest(vertx));
      assertThat(log.containing("beyond loopback")).isEmpty();
    }
  }
}
