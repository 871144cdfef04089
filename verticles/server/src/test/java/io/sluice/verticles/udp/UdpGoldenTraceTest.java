package io.sluice.verticles.udp;

import io.sluice.verticles.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.verticles.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exact reply sequences over a real socket with deploy/rules/musicbrainz.yaml loaded, the clock
 * moved by hand: the spec's golden traces (§13.2), reproduced through the shard-held state.
 */
class UdpGoldenTraceTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, MusicBrainzRulesFile.load());
  private final UdpTestClient client = new UdpTestClient(sut.udpPort());

  @AfterEach
  void stop() {
    client.close();
    sut.close();
    await(vertx.close());
  }

  /**
   * {@code ws ip=} is 22 per 20 s, strict. 40 requests at one instant, all sent before any reply is
   * read: each adds 1.000000083 to the rate (spec §4, the same-instant increment for P = 20), so
   * exactly 22 are admitted and, strict, every refusal is recorded too.
   */
  @Test
  void burstAtOneInstantAdmitsExactly22() {
    for (int i = 1; i <= 40; i++) {
      client.send(i + " over_limit ws ip=1.2.3.4");
    }
    Map<String, String> byId = new HashMap<>();
    List<String> arrival = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      String reply = client.receive();
      String id = reply.substring(0, reply.indexOf(' '));
      assertThat(byId.put(id, reply)).as("one reply per id").isNull();
      arrival.add(id);
    }
    for (int i = 1; i <= 40; i++) {
      String expected = i + (i <= 22 ? " ok N " : " ok Y ") + (i - 1) + ".0 22.0 20";
      assertThat(byId.get(Integer.toString(i))).isEqualTo(expected);
    }
    assertThat(arrival).as("one key's requests are answered in the order sent")
        .containsExactlyElementsOf(byId.keySet().stream().map(Integer::valueOf).sorted().map(String::valueOf).toList());
    assertThat(byId.get("1")).isEqualTo("1 ok N 0.0 22.0 20");
    assertThat(byId.get("22")).isEqualTo("22 ok N 21.0 22.0 20");
    assertThat(byId.get("23")).isEqualTo("23 ok Y 22.0 22.0 20");
    // Strict: the refusals count, so the rate keeps rising.
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok Y 40.0 22.0 20");
    // Another address has its own state.
    assertThat(client.request("over_limit ws ip=1.2.3.5")).isEqualTo("ok N 0.0 22.0 20");
  }

  /** The same burst on the non-strict {@code ws ua=libvlc} (125/10): refusals are not recorded, the rate stays put. */
  @Test
  void nonStrictBurstFreezesAtTheLimit() {
    for (int i = 1; i <= 130; i++) {
      client.send(i + " over_limit ws ua=libvlc");
    }
    Map<String, String> byId = new HashMap<>();
    for (int i = 1; i <= 130; i++) {
      String reply = client.receive();
      byId.put(reply.substring(0, reply.indexOf(' ')), reply);
    }
    for (int i = 1; i <= 130; i++) {
      assertThat(byId.get(Integer.toString(i))).isEqualTo(i <= 125
          ? i + " ok N " + (i - 1) + ".0 125.0 10"
          : i + " ok Y 125.0 125.0 10");
    }
  }

  /** spec §13.1 tests #11/#12 and the §13.2 strict 22/20 trace, on {@code ws ip=4.14.989.98}. */
  @Test
  void strict22Per20Trace() {
    Map<Integer, String> replies = new LinkedHashMap<>();
    int request = 0;
    for (int i = 0; i < 300; i++) {
      replies.put(++request, client.request("over_limit ws ip=4.14.989.98"));
      sut.advance(Duration.ofSeconds(1));
    }
    for (int i = 0; i < 100; i++) {
      replies.put(++request, client.request("over_limit ws ip=4.14.989.98"));
      sut.advance(Duration.ofMillis(100));
    }
    assertThat(replies.get(1)).isEqualTo("ok N 0.0 22.0 20");
    assertThat(replies.get(2)).isEqualTo("ok N 1.0 22.0 20");
    assertThat(replies.get(3)).isEqualTo("ok N 1.9 22.0 20");
    assertThat(replies.get(4)).isEqualTo("ok N 2.8 22.0 20");
    assertThat(replies.get(5)).isEqualTo("ok N 3.6 22.0 20");
    assertThat(replies.get(6)).isEqualTo("ok N 4.4 22.0 20");
    for (int r = 296; r <= 301; r++) {
      assertThat(replies.get(r)).as("request %d", r).isEqualTo("ok N 20.0 22.0 20");
    }
    assertThat(replies.get(302)).isEqualTo("ok N 20.9 22.0 20");
    assertThat(replies.get(303)).isEqualTo("ok N 21.8 22.0 20");
    assertThat(replies.get(304)).isEqualTo("ok Y 22.7 22.0 20");
    assertThat(replies.get(305)).isEqualTo("ok Y 23.6 22.0 20");
    assertThat(replies.get(310)).isEqualTo("ok Y 27.9 22.0 20");
    assertThat(replies.get(321)).isEqualTo("ok Y 37.1 22.0 20");
    assertThat(replies.get(400)).isEqualTo("ok Y 90.3 22.0 20");
    assertThat(replies.values().stream().limit(300)).allMatch(reply -> reply.startsWith("ok N "));
    assertThat(replies.values().stream().skip(303)).allMatch(reply -> reply.startsWith("ok Y "));
  }

  /** spec §13.1 tests #13/#14 and the §13.2 non-strict 125/10 trace, on {@code ws ua=libvlc}, with its statistics. */
  @Test
  void nonStrict125Per10Trace() {
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      replies.add(client.request("over_limit ws ua=libvlc"));
      sut.advance(Duration.ofMillis(100));
    }
    for (int i = 0; i < 200; i++) {
      replies.add(client.request("over_limit ws ua=libvlc"));
      sut.advance(Duration.ofMillis(50));
    }
    assertThat(replies.get(0)).isEqualTo("ok N 0.0 125.0 10");
    assertThat(replies.get(1)).isEqualTo("ok N 1.0 125.0 10");
    assertThat(replies.get(199)).isEqualTo("ok N 86.3 125.0 10");
    assertThat(replies.get(200)).isEqualTo("ok N 86.5 125.0 10");
    assertThat(replies.get(226)).isEqualTo("ok N 100.3 125.0 10");
    assertThat(replies.subList(385, 400)).containsExactly(
        "ok N 124.4 125.0 10", "ok N 124.8 125.0 10", "ok Y 125.2 125.0 10", "ok N 124.6 125.0 10",
        "ok N 124.9 125.0 10", "ok Y 125.3 125.0 10", "ok N 124.7 125.0 10", "ok Y 125.1 125.0 10",
        "ok N 124.5 125.0 10", "ok N 124.8 125.0 10", "ok Y 125.2 125.0 10", "ok N 124.6 125.0 10",
        "ok N 125.0 125.0 10", "ok Y 125.3 125.0 10", "ok N 124.7 125.0 10");
    assertThat(replies.subList(0, 230)).allMatch(reply -> reply.startsWith("ok N "));
    assertThat(replies.subList(200, 400).stream().filter(reply -> reply.startsWith("ok N "))).hasSize(156);
    assertThat(client.request("get_stats ws ua=libvlc")).isEqualTo("n_req=400 n_over=44 last_max_rate=0 key=ws ua=libvlc");
  }
}
