package io.sluice.verticles.server.udp;

import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command of the UDP text protocol over a real socket, with the shipped MusicBrainz rules
 * (deploy/rules/musicbrainz.yaml) on a fresh server whose clock stands still unless moved.
 */
class UdpCommandsTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules());
  private final UdpTestClient client = new UdpTestClient(sut.udpPort());

  @AfterEach
  void stop() {
    client.close();
    sut.close();
    await(vertx.close());
  }

  @Test
  void ping() {
    assertThat(client.request("ping")).isEqualTo("pong");
  }

  @Test
  void overLimitReportsVerdictRateLimitAndPeriodOfTheKeysRule() {
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 0.0 22.0 20");
    assertThat(client.request("over_limit ws ip=1.2.3.4\n")).as("one trailing newline is dropped").isEqualTo("ok N 1.0 22.0 20");
    assertThat(client.request("over_limit frontend ip=1.2.3.4")).isEqualTo("ok N 0.0 45.0 20");
    assertThat(client.request("over_limit ws global")).isEqualTo("ok N 0.0 2500.0 10");
    assertThat(client.request("over_limit ws ip=132.185.1.2")).as("BBC: rewritten to ws cust=bbc").isEqualTo("ok N 0.0 300.0 20");
    assertThat(client.request("over_limit ws ip=212.58.230.1")).as("same state key").isEqualTo("ok N 1.0 300.0 20");
    assertThat(client.request("over_limit ")).as("empty key: default rule").isEqualTo("ok N 0.0 1.0 1");
    assertThat(client.request("over_limit no rule matches this")).isEqualTo("ok N 0.0 1.0 1");
    sut.advance(Duration.ofSeconds(1));
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 1.9 22.0 20");
  }

  /** spec §13.2 "Protocol vectors": real rules, fresh server, in this order. */
  @Test
  void protocolVectorsOfTheSpecInOrder() {
    assertThat(client.request("over_limit ")).isEqualTo("ok N 0.0 1.0 1");
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 0.0 22.0 20");
    assertThat(client.request("over_limit ws ip=1.2.3.4\n")).isEqualTo("ok N 1.0 22.0 20");
    client.assertNoReply("ping\n");
    client.assertNoReply("over_limit a\nb");
    assertThat(client.request("12 over_limit ws global")).isEqualTo("12 ok N 0.0 2500.0 10");
    assertThat(client.request("get_stats ")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=");
    client.assertNoReply("get_stats");
    client.assertNoReply("get_size ");
    assertThat(client.request("over_limit ws ip=132.185.1.2")).isEqualTo("ok N 0.0 300.0 20");
    assertThat(client.request("get_stats ws cust=bbc")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=ws cust=bbc");
    assertThat(client.request("check_limit {}")).isEqualTo("ok N 0.0 1.0 1, "
        + "[\"unspecified ua=\",\"unspecified ip=\",\"unspecified global\"], "
        + "[{\"key\":\"unspecified ua=\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
        + "{\"key\":\"unspecified ip=\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
        + "{\"key\":\"unspecified global\",\"over_limit\":\"ok N 0.0 1.0 1\"}]");
    assertThat(client.request("get_size")).isEqualTo("size=3 keys=3");
    assertThat(client.request("over_limit ws ua=")).isEqualTo("ok N 0.0 100.0 10");
    assertThat(client.request("over_limit ws ua=-")).isEqualTo("ok N 1.0 100.0 10");
    assertThat(client.request("get_stats ws ua=generic-bad-ua")).isEqualTo("n_req=2 n_over=0 last_max_rate=0 key=ws ua=generic-bad-ua");
    assertThat(client.request("get_stats default")).isEqualTo("n_req=4 n_over=0 last_max_rate=0 key=default");
    assertThat(client.request("over_limit PiCard/1.0")).isEqualTo("ok N 0.0 1.0 1");
    assertThat(client.request("get_stats picard")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=picard");
    assertThat(client.request("get_size")).isEqualTo("size=5 keys=5");
    client.assertNoReply("check_limit {bad json");
  }

  @Test
  void checkLimitEvaluatesUaIpAndGlobalKeys() {
    assertThat(client.request("7 check_limit {\"ua\":\"foo/1.0\",\"ip\":\"1.2.3.4\",\"origin\":\"ws\"}")).isEqualTo(
        "7 ok N 0.0 2500.0 10, [\"ws ua=foo/1.0\",\"ws ip=1.2.3.4\",\"ws global\"], "
            + "[{\"key\":\"ws ua=foo/1.0\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
            + "{\"key\":\"ws ip=1.2.3.4\",\"over_limit\":\"ok N 0.0 22.0 20\"},"
            + "{\"key\":\"ws global\",\"over_limit\":\"ok N 0.0 2500.0 10\"}]");
    assertThat(client.request("get_size")).isEqualTo("size=2 keys=2");
    assertThat(client.request("over_limit ws ip=1.2.3.4")).as("check_limit used the same state").isEqualTo("ok N 1.0 22.0 20");
  }

  @Test
  void checkLimitStopsAfterTheFirstRefusedKey() {
    for (int i = 0; i < 22; i++) {
      assertThat(client.request("over_limit ws ip=9.8.7.6")).startsWith("ok N ");
    }
    assertThat(client.request("check_limit {\"origin\":\"ws\",\"ip\":\"9.8.7.6\"}")).isEqualTo(
        "ok Y 22.0 22.0 20, [\"ws ua=\",\"ws ip=9.8.7.6\",\"ws global\"], "
            + "[{\"key\":\"ws ua=\",\"over_limit\":\"ok N 0.0 100.0 10\"},"
            + "{\"key\":\"ws ip=9.8.7.6\",\"over_limit\":\"ok Y 22.0 22.0 20\"}]");
    assertThat(client.request("over_limit ws global")).as("ws global was not consumed").isEqualTo("ok N 0.0 2500.0 10");
  }

  @Test
  void checkLimitNullIsTheEmptyObject() {
    String empty = client.request("check_limit {}");
    assertThat(client.request("check_limit null")).isEqualTo(empty);
  }

  /** The original server died on these; Sluice sends no reply and keeps answering. */
  @ParameterizedTest
  @ValueSource(strings = {"check_limit {bad json", "check_limit [1,2]", "check_limit \"x\"", "check_limit 5",
      "check_limit true", "check_limit ", "check_limit {\"ua\": \"x\"", "check_limit {} {}", "check_limit {\"ua\":\"\u00ff\"}",
      "77 check_limit {bad json"})
  void malformedCheckLimitGetsNoReplyAndTheEndpointKeepsAnswering(String datagram) {
    assertThat(client.request("over_limit ws ip=5.5.5.5")).isEqualTo("ok N 0.0 22.0 20");
    client.assertNoReply(datagram);
    client.assertNoReply(datagram);
    assertThat(client.request("over_limit ws ip=5.5.5.5")).isEqualTo("ok N 1.0 22.0 20");
    assertThat(client.request("8 check_limit {\"origin\":\"ws\",\"ip\":\"5.5.5.5\"}")).startsWith("8 ok N 0.0 2500.0 10, ");
    assertThat(client.request("get_stats default")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=default");
  }

  @Test
  void getStatsCountsRequestsAndRefusalsAndReportsThePreviousBucketsMaximum() {
    for (int i = 0; i < 130; i++) {
      assertThat(client.request("over_limit ws ua=libvlc")).isEqualTo(i < 125
          ? "ok N " + i + ".0 125.0 10"
          : "ok Y 125.0 125.0 10");
    }
    assertThat(client.request("get_stats ws ua=libvlc")).isEqualTo("n_req=130 n_over=5 last_max_rate=0 key=ws ua=libvlc");
    assertThat(client.request("get_stats ws ip=1.2.3.4")).as("no statistics for a rule without them")
        .isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=ws ip=1.2.3.4");
    assertThat(client.request("get_stats ws  ua=libvlc")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=ws  ua=libvlc");
    // The clock starts on a 5-minute boundary: 300 s later the bucket turns over.
    sut.advance(Duration.ofSeconds(299));
    assertThat(client.request("get_stats ws ua=libvlc")).isEqualTo("n_req=130 n_over=5 last_max_rate=0 key=ws ua=libvlc");
    sut.advance(Duration.ofSeconds(1));
    assertThat(client.request("get_stats ws ua=libvlc")).isEqualTo("n_req=130 n_over=5 last_max_rate=125 key=ws ua=libvlc");
    sut.advance(Duration.ofSeconds(299));
    assertThat(client.request("get_stats ws ua=libvlc")).as("still the bucket after the uses")
        .isEqualTo("n_req=130 n_over=5 last_max_rate=125 key=ws ua=libvlc");
    sut.advance(Duration.ofSeconds(1));
    assertThat(client.request("get_stats ws ua=libvlc")).as("600 s without use: forgotten, as last_max_rate ends")
        .isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=ws ua=libvlc");
  }

  @Test
  void getSizeCountsRateStateKeysOnly() {
    assertThat(client.request("get_size")).isEqualTo("size=0 keys=0");
    client.request("over_limit anything");
    client.request("over_limit ws ua=some client/1.0");
    client.request("check_limit {}");
    assertThat(client.request("get_size")).as("default-rule keys keep no rate state").isEqualTo("size=0 keys=0");
    for (int i = 0; i < 50; i++) {
      client.request("over_limit ws ip=10.0.0." + i);
      client.request("over_limit ws ip=10.0.0." + i);
    }
    assertThat(client.request("get_size")).isEqualTo("size=50 keys=50");
    client.request("over_limit ws ip=132.185.0.1");
    client.request("over_limit ws ip=132.185.0.2");
    assertThat(client.size()).as("two addresses, one rewritten key").isEqualTo(51);
    client.request("over_limit Picard/2.5");
    assertThat(client.size()).as("the stats-only key picard").isEqualTo(52);
    assertThat(client.request("42 get_size")).isEqualTo("42 size=52 keys=52");
  }
}
