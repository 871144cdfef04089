package io.sluice.verticles.server.udp;

import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Request ids are digit strings echoed verbatim: leading zeros kept, no size limit (spec §2.1, §3). */
class UdpRequestIdsTest {

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
  @ValueSource(strings = {"27823", "0", "000867465", "394769760968709384567", "18446744073709551616",
      "9223372036854775808", "00000000000000000000000000000000000000000000000000000000000000000001"})
  void pingEchoesTheIdVerbatim(String id) {
    assertThat(client.request(id + " ping")).isEqualTo(id + " pong");
  }

  @Test
  void everyCommandEchoesTheId() {
    assertThat(client.request("000 over_limit ws ip=5.6.7.8")).isEqualTo("000 ok N 0.0 22.0 20");
    assertThat(client.request("394769760968709384567 over_limit ws ip=5.6.7.8")).isEqualTo("394769760968709384567 ok N 1.0 22.0 20");
    assertThat(client.request("0042 get_stats some key")).isEqualTo("0042 n_req=0 n_over=0 last_max_rate=0 key=some key");
    assertThat(client.request("18446744073709551616 get_size")).isEqualTo("18446744073709551616 size=1 keys=1");
    assertThat(client.request("099999999999999999999999 check_limit {\"origin\":\"x\"}")).isEqualTo(
        "099999999999999999999999 ok N 0.0 1.0 1, [\"x ua=\",\"x ip=\",\"x global\"], "
            + "[{\"key\":\"x ua=\",\"over_limit\":\"ok N 0.0 1.0 1\"},{\"key\":\"x ip=\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
            + "{\"key\":\"x global\",\"over_limit\":\"ok N 0.0 1.0 1\"}]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"no_such_command", "27823 no_such_command", "000867465 no_such_command",
      "394769760968709384567 no_such_command", "12 34 ping", "123  ping", "123", "123 ", "1 PING", "1 get_size ",
      "1 get_stats", "1 over_limit", "1 over_limit a\nb", "-1 ping", "+1 ping", "1.5 ping", "0x1F ping"})
  void noReplyWithOrWithoutAnId(String datagram) {
    client.assertNoReply(datagram);
  }

  @Test
  void onlyOneIdIsStripped() {
    assertThat(client.request("12 get_stats 34 x")).isEqualTo("12 n_req=0 n_over=0 last_max_rate=0 key=34 x");
    assertThat(client.request("12 over_limit 34")).isEqualTo("12 ok N 0.0 1.0 1");
  }

  @Test
  void pipelinedRequestsAreEachAnsweredWithTheirOwnId() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ids.add("0".repeat(i % 5) + i + "0000000000000000000000".substring(0, i % 23));
    }
    for (String id : ids) {
      client.send(id + " ping");
    }
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      replies.add(client.receive());
    }
    assertThat(replies).containsExactlyInAnyOrderElementsOf(ids.stream().map(id -> id + " pong").toList());
  }
}
