package io.sluice.verticles.server.udp;

import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bursts at one instant over a real socket with deploy/rules/musicbrainz.yaml loaded, every request
 * sent before any reply is read: exact replies through the shard-held state, in the order sent.
 * The spec's golden traces (§13.2) are in {@link io.sluice.verticles.engine.udprate.UdpEngineKit}, run here by
 * {@link ShardRateStoreEngineTest}.
 */
class UdpBurstTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules());
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
}
