package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** spec §13.2 "protocol vectors": the real HEAD rules on a fresh server, in this order. */
class ProtocolVectorsTest {

  @Test
  void theSpecsSequenceOnAFreshServer() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    assertThat(server.request("over_limit ")).isEqualTo("ok N 0.0 1.0 1");
    assertThat(server.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 0.0 22.0 20");
    assertThat(server.request("over_limit ws ip=1.2.3.4\n")).isEqualTo("ok N 1.0 22.0 20");
    assertThat(server.request("ping\n")).isNull();
    assertThat(server.request("over_limit a\nb")).isNull();
    assertThat(server.request("12 over_limit ws global")).isEqualTo("12 ok N 0.0 2500.0 10");
    assertThat(server.request("get_stats ")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=");
    assertThat(server.request("get_stats")).isNull();
    assertThat(server.request("get_size ")).isNull();
    assertThat(server.request("over_limit ws ip=132.185.1.2")).isEqualTo("ok N 0.0 300.0 20");
    assertThat(server.request("get_stats ws cust=bbc")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=ws cust=bbc");
    assertThat(server.request("check_limit {}")).isEqualTo("ok N 0.0 1.0 1, "
        + "[\"unspecified ua=\",\"unspecified ip=\",\"unspecified global\"], "
        + "[{\"key\":\"unspecified ua=\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
        + "{\"key\":\"unspecified ip=\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
        + "{\"key\":\"unspecified global\",\"over_limit\":\"ok N 0.0 1.0 1\"}]");
    assertThat(server.request("get_size")).isEqualTo("size=3 keys=3");
    assertThat(server.request("over_limit ws ua=")).isEqualTo("ok N 0.0 100.0 10");
    assertThat(server.request("over_limit ws ua=-")).isEqualTo("ok N 1.0 100.0 10");
    assertThat(server.request("get_stats ws ua=generic-bad-ua")).isEqualTo(
        "n_req=2 n_over=0 last_max_rate=0 key=ws ua=generic-bad-ua");
    assertThat(server.request("get_stats default")).isEqualTo("n_req=4 n_over=0 last_max_rate=0 key=default");
    assertThat(server.request("over_limit PiCard/1.0")).isEqualTo("ok N 0.0 1.0 1");
    assertThat(server.request("get_stats picard")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=picard");
    assertThat(server.request("get_size")).isEqualTo("size=5 keys=5");
    assertThat(server.request("check_limit {bad json")).isNull();
    assertThat(server.rejectedCheckLimits).hasSize(1);
    assertThat(server.defaultRuleKeys).containsExactly(
        "", "unspecified ua=", "unspecified ip=", "unspecified global", "PiCard/1.0");
    assertThat(server.failures).isEmpty();
  }

  @Test
  void theSeedsExamplesHaveTheirShape() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    assertThat(server.request("472 over_limit ws ip=74.11.99.155")).isEqualTo("472 ok N 0.0 22.0 20");
    assertThat(server.request("78229 get_stats some-key")).isEqualTo("78229 n_req=0 n_over=0 last_max_rate=0 key=some-key");
    for (int i = 0; i < 40; i++) {
      server.request("over_limit ws ip=4.14.989.98");
    }
    assertThat(server.request("1332 over_limit ws ip=4.14.989.98")).startsWith("1332 ok Y ").endsWith(" 22.0 20");
  }

  /** spec §4: 40 requests within ~1 ms to a fresh ws ip= key → 23 N then 17 Y; the 23rd prints 22.0. */
  @Test
  void aBurstWithTimeVisiblyPassingAdmitsLimitPlusOne() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      replies.add(server.overLimit("ws ip=1.2.3.4"));
      server.advance(0.000025);
    }
    assertThat(replies.subList(0, 23)).allMatch(reply -> reply.startsWith("ok N "));
    assertThat(replies.subList(23, 40)).allMatch(reply -> reply.startsWith("ok Y "));
    assertThat(replies.get(22)).isEqualTo("ok N 22.0 22.0 20");
  }

  @Test
  void noReplyStaysNoReplyWithAnId() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    assertThat(server.request("5 over_limit a\nb")).isNull();
    assertThat(server.request("5 get_size\n")).isNull();
    assertThat(server.request("5 check_limit [1,2]")).isNull();
    assertThat(server.request("5 ")).isNull();
    assertThat(server.request("")).isNull();
  }

  @Test
  void replyBytesRoundTripOpaqueKeys() {
    EngineHarness server = new EngineHarness(RuleSet.allowAll());
    byte[] request = {'9', ' ', 'g', 'e', 't', '_', 's', 't', 'a', 't', 's', ' ', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF};
    String reply = server.engine.handle(request).orElseThrow();
    assertThat(UdpEngine.replyBytes(reply)).endsWith(new byte[] {'=', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF});
    assertThat(new String(UdpEngine.replyBytes(reply), StandardCharsets.ISO_8859_1)).startsWith("9 n_req=0 ");
  }

  @Test
  void datagramsAreCutAt1000Bytes() {
    EngineHarness server = new EngineHarness(RuleSet.allowAll());
    String key = "k".repeat(1000 - "over_limit ".length());
    server.request("over_limit " + key + "tail beyond the buffer");
    assertThat(server.request("get_stats default")).startsWith("n_req=1 ");
    assertThat(server.defaultRuleKeys).containsExactly(key);
  }

  @Test
  void aLargerCutCanBeConfigured() {
    EngineHarness defaults = new EngineHarness(RuleSet.allowAll());
    UdpEngine engine = UdpEngine.builder(RuleSet.allowAll(), defaults.store).clock(defaults.clock)
        .maxDatagramBytes(2000).build();
    String request = "get_stats " + "k".repeat(1500);
    assertThat(engine.handle(request.getBytes(StandardCharsets.ISO_8859_1)).orElseThrow()).endsWith("k".repeat(1500));
  }
}
