package io.sluice.verticles.server.udp;

import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The protocol is fussy (spec §2, §9): anything not exactly a command gets no reply at all. */
class UdpFussinessTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules());
  private final UdpTestClient client = new UdpTestClient(sut.udpPort());

  @AfterEach
  void stop() {
    client.close();
    sut.close();
    await(vertx.close());
  }

  @ParameterizedTest
  @ValueSource(strings = {"PING", " ping", "ping ", "ping\n", "ping\r\n", "pingx", "Ping", "get_size ", "get_size\n",
      "get_sizes", "GET_SIZE", "get_stats", "get_stats\n", "over_limit", "over_limit\n", "over_limitws ip=1.2.3.4",
      "OVER_LIMIT ws ip=1.2.3.4", " over_limit ws ip=1.2.3.4", "over_limit a\nb", "over_limit ws ip=1.2.3.4\n\n",
      "over_limit \nx", "get_stats a\nb", "check_limit", "check_limit {}\n\n", "no_such_command", "\n", " ", "\u0000",
      "over_limit\tws ip=1.2.3.4"})
  void noReply(String datagram) {
    client.assertNoReply(datagram);
  }

  @Test
  void anEmptyDatagramGetsNoReply() {
    client.assertNoReply(new byte[0]);
  }

  @Test
  void noReplyCasesLeaveNoStateBehind() {
    client.assertNoReply("over_limit ws ip=1.2.3.4\n\n");
    client.assertNoReply("over_limit ws ip=1.2.3.4\nx");
    assertThat(client.size()).isZero();
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 0.0 22.0 20");
  }

  @Test
  void keyedCommandsTolerateOneTrailingNewline() {
    assertThat(client.request("get_stats k\n")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=k");
    assertThat(client.request("5 over_limit ws ip=1.2.3.4\n")).isEqualTo("5 ok N 0.0 22.0 20");
    assertThat(client.request("check_limit {}\n")).startsWith("ok N 0.0 1.0 1, ");
  }

  @Test
  void keysAreExactBytes() {
    assertThat(client.request("over_limit ws ip=1.2.3.4 ")).as("trailing space: no rule matches").isEqualTo("ok N 0.0 1.0 1");
    assertThat(client.request("over_limit ws ip=4.14.989.98")).as("address groups are not range-checked").isEqualTo("ok N 0.0 22.0 20");
    byte[] latin = "get_stats caf\u00e9 \u00ff\u0001".getBytes(StandardCharsets.ISO_8859_1);
    client.send(latin);
    assertThat(client.receive().getBytes(StandardCharsets.ISO_8859_1))
        .isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=caf\u00e9 \u00ff\u0001".getBytes(StandardCharsets.ISO_8859_1));
    byte[] utf8 = "get_stats caf\u00e9".getBytes(StandardCharsets.UTF_8);
    client.send(utf8);
    assertThat(client.receive().getBytes(StandardCharsets.ISO_8859_1))
        .endsWith("key=caf\u00e9".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void onlyTheFirst1000BytesOfADatagramCount() {
    String key = "x".repeat(1500);
    assertThat(client.request("get_stats " + key)).as("the key is cut to 1000 - 10 bytes")
        .isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=" + "x".repeat(990));
    // The newline at byte 1001 is cut off with the rest, so this is a valid request.
    assertThat(client.request("over_limit " + "k".repeat(989) + "\nmore")).isEqualTo("ok N 0.0 1.0 1");
    assertThat(client.request("12 over_limit " + "k".repeat(986) + "\nmore")).isEqualTo("12 ok N 0.0 1.0 1");
    // ...while two bytes less put it inside, before the "m" (a newline at byte 1000 would be the tolerated one).
    client.assertNoReply("over_limit " + "k".repeat(987) + "\nmore");
    assertThat(client.request("over_limit " + "k".repeat(988) + "\nmore")).isEqualTo("ok N 0.0 1.0 1");
    // A ping followed by 1000 bytes of padding is no ping.
    client.assertNoReply("ping" + " ".repeat(1000));
  }
}
