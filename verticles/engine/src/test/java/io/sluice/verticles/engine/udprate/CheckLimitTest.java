package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** check_limit through the engine (spec §8). */
class CheckLimitTest {

  private static final String ALLOWED = "ok N 0.0 1.0 1";

  @Test
  void theSpecsVerifiedExample() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    assertThat(server.request("7 check_limit {\"ua\":\"foo/1.0\",\"ip\":\"1.2.3.4\",\"origin\":\"ws\"}")).isEqualTo(
        "7 ok N 0.0 2500.0 10, [\"ws ua=foo/1.0\",\"ws ip=1.2.3.4\",\"ws global\"], "
            + "[{\"key\":\"ws ua=foo/1.0\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
            + "{\"key\":\"ws ip=1.2.3.4\",\"over_limit\":\"ok N 0.0 22.0 20\"},"
            + "{\"key\":\"ws global\",\"over_limit\":\"ok N 0.0 2500.0 10\"}]");
  }

  @Test
  void eachKeyGoesThroughTheFullOverLimitLogic() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    server.request("check_limit {\"ua\":\"Java/1.6\",\"ip\":\"132.185.3.4\",\"origin\":\"ws\"}");
    assertThat(server.stats("ws ua=generic-bad-ua")).startsWith("n_req=1 ");
    assertThat(server.stats("ws cust=bbc")).startsWith("n_req=1 ");
    assertThat(server.stats("ws global")).startsWith("n_req=1 ");
    assertThat(server.overLimit("ws global")).isEqualTo("ok N 1.0 2500.0 10");
  }

  @Test
  void evaluationStopsAfterTheFirstY() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    for (int i = 0; i < 22; i++) {
      server.overLimit("ws ip=9.9.9.9");
    }
    String reply = server.request("check_limit {\"origin\":\"ws\",\"ip\":\"9.9.9.9\"}");
    // the 23rd same-instant use: 22.000002…, printed 22.0, over
    assertThat(reply).startsWith("ok Y 22.0 22.0 20, [\"ws ua=\",\"ws ip=9.9.9.9\",\"ws global\"], [")
        .endsWith("[{\"key\":\"ws ua=\",\"over_limit\":\"ok N 0.0 100.0 10\"},"
            + "{\"key\":\"ws ip=9.9.9.9\",\"over_limit\":\"ok Y 22.0 22.0 20\"}]");
    assertThat(server.stats("ws global")).as("not consumed").startsWith("n_req=0 ");
  }

  @Test
  void aYOnTheFirstKeyStopsAtOnce() {
    RuleSet refuseAll = RuleSet.singleRule(Rule.forAnyKey(0, 10, true).withKeepStats(true));
    EngineHarness server = new EngineHarness(refuseAll);
    assertThat(server.request("check_limit {}")).isEqualTo("ok Y 0.0 0.0 10, "
        + "[\"unspecified ua=\",\"unspecified ip=\",\"unspecified global\"], "
        + "[{\"key\":\"unspecified ua=\",\"over_limit\":\"ok Y 0.0 0.0 10\"}]");
    assertThat(server.request("get_size")).isEqualTo("size=1 keys=1");
  }

  @Test
  void nullAnswersExactlyLikeAnEmptyObject() {
    EngineHarness empty = new EngineHarness(MusicBrainzRulesFile.load());
    EngineHarness nullArgument = new EngineHarness(MusicBrainzRulesFile.load());
    assertThat(nullArgument.request("check_limit null")).isEqualTo(empty.request("check_limit {}"))
        .startsWith(ALLOWED + ", ");
  }

  @Test
  void malformedArgumentsGetNoReplyAndAreReported() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    for (String argument : List.of("{bad json", "[1,2]", "\"x\"", "5", "true", "", "{\"ua\": \"x\"")) {
      assertThat(server.request("1 check_limit " + argument)).as(argument).isNull();
    }
    assertThat(server.rejectedCheckLimits).hasSize(7);
    assertThat(server.request("get_size")).as("nothing was evaluated").isEqualTo("size=0 keys=0");
    assertThat(server.request("ping")).as("the server lives on").isEqualTo("pong");
  }

  @Test
  void nonStringValuesAreUsedAsDocumented() {
    EngineHarness server = new EngineHarness(RuleSet.allowAll());
    assertThat(server.request("check_limit {\"origin\":false,\"ua\":12.50,\"ip\":[1]}"))
        .contains("[\"0 ua=12.5\",\"0 ip=[1]\",\"0 global\"]");
  }

  @Test
  void utf8KeysAreDecodedAndEncodedBack() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    byte[] request = "check_limit {\"origin\":\"ws\",\"ua\":\"Ünïcode €\"}".getBytes(StandardCharsets.UTF_8);
    String reply = server.engine.handle(request).orElseThrow();
    String asUtf8 = new String(UdpEngine.replyBytes(reply), StandardCharsets.UTF_8);
    assertThat(asUtf8).contains("[\"ws ua=Ünïcode €\",\"ws ip=\",\"ws global\"]");
    assertThat(server.defaultRuleKeys).contains("ws ua=Ünïcode €");
  }

  @Test
  void aDecodedKeyBelowU0100IsTheSameKeyAsItsBytesThroughOverLimit() {
    RuleSet rules = RuleSet.singleRule(Rule.forAnyKey(100, 10, true).withKeepStats(true));
    EngineHarness server = new EngineHarness(rules);
    server.request("check_limit {\"origin\":\"ws\",\"ua\":\"caf\\u00e9\"}");
    byte[] latin1 = "get_stats ws ua=café".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(server.engine.handle(latin1).orElseThrow()).startsWith("n_req=1 ");
    byte[] utf8 = "get_stats ws ua=café".getBytes(StandardCharsets.UTF_8);
    assertThat(server.engine.handle(utf8).orElseThrow()).as("the UTF-8 bytes are another key").startsWith("n_req=0 ");
  }

  @Test
  void unicodeKeysAreMatchedWithUnicodeRules() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    // Arabic-Indic digits are \d for Perl's decoded strings: the ws ip= rule applies
    String reply = server.request("check_limit {\"origin\":\"ws\",\"ip\":\"\\u0661.\\u0662.\\u0663.\\u0664\"}");
    assertThat(reply).contains("\"over_limit\":\"ok N 0.0 22.0 20\"");
  }
}
