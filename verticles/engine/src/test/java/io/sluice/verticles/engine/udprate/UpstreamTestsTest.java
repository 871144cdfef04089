package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.protocol.udp.rules.StatsOnlyHook;
import io.sluice.verticles.engine.udprate.rate.DecayingRateEvaluation;
import io.sluice.verticles.engine.udprate.rate.RateEvaluation;
import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.protocol.udp.rules.FixedReply;
import io.sluice.protocol.udp.rules.KeyPattern;
import io.sluice.protocol.udp.rules.KeyRewrite;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.udprate.store.StateTransition;
import io.sluice.verticles.engine.udprate.stats.BucketRotation;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upstream test suite of the original server (t/all.t, t/bbc.t, t/headphones.t, t/benchmark.t;
 * spec §13.1), case by case, with a fake clock where the original used one and a frozen clock where
 * it used the real one.
 */
class UpstreamTestsTest {

  private static RuleSet everyKey(double limit, double period, boolean strict, boolean keepStats) {
    return RuleSet.singleRule(Rule.forAnyKey(limit, period, strict).withKeepStats(keepStats));
  }

  @Nested
  class RequestId {
    private final EngineHarness server = new EngineHarness(RuleSet.allowAll());

    @Test
    void case1To4RepliesEchoTheIdVerbatim() {
      assertThat(server.request("ping")).isEqualTo("pong");
      assertThat(server.request("27823 ping")).isEqualTo("27823 pong");
      assertThat(server.request("000867465 ping")).isEqualTo("000867465 pong");
      assertThat(server.request("394769760968709384567 ping")).isEqualTo("394769760968709384567 pong");
    }

    @Test
    void case5To8BadRequestsGetNoReplyEvenWithAnId() {
      assertThat(server.request("no_such_command")).isNull();
      assertThat(server.request("27823 no_such_command")).isNull();
      assertThat(server.request("000867465 no_such_command")).isNull();
      assertThat(server.request("394769760968709384567 no_such_command")).isNull();
    }
  }

  @Test
  void case9And10Fussiness() {
    EngineHarness server = new EngineHarness(RuleSet.allowAll());
    assertThat(server.request("ping")).isEqualTo("pong");
    assertThat(server.request("PING")).isNull();
    assertThat(server.request(" ping")).isNull();
    assertThat(server.request("ping ")).isNull();
    assertThat(server.request("123 ping")).isEqualTo("123 pong");
    assertThat(server.request("123  ping")).isNull();
  }

  @Test
  void case11And12BasicStrictLimit() {
    EngineHarness server = new EngineHarness(everyKey(22, 20, true, false));
    for (int i = 1; i <= 300; i++) {
      assertThat(server.overLimit("dummy")).as("under limit %d of 300", i).startsWith("ok N ");
      server.advance(1);
    }
    for (int i = 1; i <= 100; i++) {
      String reply = server.overLimit("dummy");
      assertThat(reply).as("request %d of 100", i).startsWith(i <= 3 ? "ok N " : "ok Y ");
      server.advance(0.1);
    }
  }

  @Test
  void case13And14BasicLeakyLimit() {
    EngineHarness server = new EngineHarness(everyKey(125, 10, false, false));
    for (int i = 1; i <= 200; i++) {
      assertThat(server.overLimit("dummy")).as("under limit %d", i).startsWith("ok N ");
      server.advance(0.1);
    }
    List<String> replies = new ArrayList<>();
    for (int i = 1; i <= 200; i++) {
      replies.add(server.overLimit("dummy"));
      server.advance(0.05);
    }
    assertThat(replies.subList(0, 30)).allMatch(reply -> reply.startsWith("ok N "));
    assertThat(replies.subList(190, 200).stream().filter(reply -> reply.startsWith("ok N "))).hasSize(6);
  }

  @Test
  void case15And16GetSizeCountsKeysWithRateState() {
    EngineHarness server = new EngineHarness(RuleSet.allowAll());
    assertThat(server.request("get_size")).matches("^size=\\S+ keys=0$");
    for (String key : List.of("key 1", "key 1", "key 3", "key 2")) {
      double now = server.engine.nowSeconds();
      server.store.update(key, current -> {
        RateEvaluation evaluation = DecayingRateEvaluation.evaluate((RateState) current, now, 10, 10, false);
        return evaluation.leavesStateUnchanged()
            ? StateTransition.Outcome.leaveUnchanged(evaluation)
            : StateTransition.Outcome.store(evaluation.stateToStore(), 600_000, evaluation);
      });
    }
    assertThat(server.request("get_size")).matches("^size=\\S+ keys=3$").isEqualTo("size=3 keys=3");
  }

  @Test
  void case17To19StatsOnlyForRulesThatKeepThem() {
    RuleSet rules = new RuleSet(List.of(), List.of(), List.of(
        Rule.limit("^key_without_stats$", 10, 1, true),
        Rule.limit("^key_with_stats$", 10, 1, true).withKeepStats(true)),
        Rule.allowAllDefault());
    EngineHarness server = new EngineHarness(rules);
    assertThat(server.stats("not_seen_yet")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=not_seen_yet");
    for (int i = 0; i < 20; i++) {
      server.overLimit("key_without_stats");
      server.overLimit("key_with_stats");
    }
    assertThat(server.stats("key_without_stats")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=key_without_stats");
    assertThat(server.stats("key_with_stats")).isEqualTo("n_req=20 n_over=9 last_max_rate=0 key=key_with_stats");
  }

  /** The original test rotates by calling check_next_bucket at chosen times (no timer). */
  @Test
  void case20To22BucketsRotatedByTheCaller() {
    long start = 1_700_000_100 + 1; // int(now) rounded down to a multiple of 300, plus one
    EngineHarness server = new EngineHarness(everyKey(22, 20, false, true), start, BucketRotation.CALLER_DRIVEN);
    server.engine.statistics().rotateIfDue(server.engine.nowSeconds()); // bucket #1
    for (int i = 0; i < 50; i++) {
      server.advance(0.5);
      server.overLimit("one");
      server.advance(0.5);
      server.overLimit("one");
      server.overLimit("two");
    }
    server.advance(250);
    assertThat(server.stats("one")).isEqualTo("n_req=100 n_over=31 last_max_rate=0 key=one");
    assertThat(server.stats("two")).isEqualTo("n_req=50 n_over=0 last_max_rate=0 key=two");

    assertThat(server.engine.statistics().rotateIfDue(server.engine.nowSeconds())).isTrue(); // bucket #2
    for (int i = 0; i < 100; i++) {
      server.advance(0.25);
      server.overLimit("one");
      server.advance(0.25);
      server.overLimit("one");
      server.overLimit("two");
    }
    server.advance(250);
    assertThat(server.stats("one")).isEqualTo("n_req=300 n_over=158 last_max_rate=22 key=one");
    assertThat(server.stats("two")).isEqualTo("n_req=150 n_over=31 last_max_rate=18 key=two");

    assertThat(server.engine.statistics().rotateIfDue(server.engine.nowSeconds())).isTrue(); // bucket #3
    assertThat(server.stats("one")).isEqualTo("n_req=300 n_over=158 last_max_rate=22 key=one");
    assertThat(server.stats("two")).isEqualTo("n_req=150 n_over=31 last_max_rate=22 key=two");
  }

  /**
   * The same sequence with the default, lazy rotation: like the original with its alarm timer, the
   * bucket has already rotated when get_stats is asked at start + 300, so bucket #1's maxima show
   * one phase earlier than in the timer-less test above.
   */
  @Test
  void case20To22WithLazyRotationShowTheTimerDrivenServersAnswers() {
    long start = 1_700_000_100 + 1;
    EngineHarness server = new EngineHarness(everyKey(22, 20, false, true), start, BucketRotation.ON_ACCESS);
    for (int i = 0; i < 50; i++) {
      server.advance(0.5);
      server.overLimit("one");
      server.advance(0.5);
      server.overLimit("one");
      server.overLimit("two");
    }
    server.advance(250);
    assertThat(server.stats("one")).isEqualTo("n_req=100 n_over=31 last_max_rate=22 key=one");
    assertThat(server.stats("two")).isEqualTo("n_req=50 n_over=0 last_max_rate=18 key=two");
    for (int i = 0; i < 100; i++) {
      server.advance(0.25);
      server.overLimit("one");
      server.advance(0.25);
      server.overLimit("one");
      server.overLimit("two");
    }
    server.advance(250);
    assertThat(server.stats("one")).isEqualTo("n_req=300 n_over=158 last_max_rate=22 key=one");
    assertThat(server.stats("two")).isEqualTo("n_req=150 n_over=31 last_max_rate=22 key=two");
  }

  @Test
  void case23And24RequestMunging() {
    RuleSet rules = new RuleSet(List.of(), List.of(KeyRewrite.firstOccurrence("_.*", "")), List.of(),
        Rule.forAnyKey(22, 20, false).withKeepStats(true));
    EngineHarness server = new EngineHarness(rules);
    assertThat(server.overLimit("one")).startsWith("ok N 0");
    assertThat(server.overLimit("two_a")).startsWith("ok N 0");
    assertThat(server.overLimit("two_b")).startsWith("ok N 1");
    assertThat(server.overLimit("three_a")).startsWith("ok N 0");
    assertThat(server.overLimit("three_b")).startsWith("ok N 1");
    assertThat(server.overLimit("three_c")).startsWith("ok N 2");
    assertThat(server.stats("one")).startsWith("n_req=1 ");
    assertThat(server.stats("two")).startsWith("n_req=2 ");
    assertThat(server.stats("three")).startsWith("n_req=3 ");
    assertThat(server.stats("two_a")).startsWith("n_req=0 ");
  }

  @Test
  void case25BbcAddressesShareOneKey() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    server.overLimit("ws ip=132.185.0.0");
    server.overLimit("ws ip=212.58.247.149");
    assertThat(server.stats("ws cust=bbc")).startsWith("n_req=2 ");
  }

  /**
   * t/headphones.t: its first expectation holds at HEAD; its second (n_req=200 for
   * python-musicbrainz/0.7.3) held only for the 2012 rules, which mapped headphones keys onto that
   * key. With the HEAD table headphones requests count under "ws headphones".
   */
  @Test
  void case26Headphones() {
    EngineHarness server = new EngineHarness(MusicBrainzRulesFile.load());
    for (int i = 0; i < 100; i++) {
      server.overLimit("ws ua=python-headphones/0.7.3");
      server.overLimit("ws ua=python-musicbrainz/0.7.3");
    }
    assertThat(server.stats("ws ua=python-headphones/0.7.3")).startsWith("n_req=100 n_over=0 last_max_rate=0 ");
    assertThat(server.stats("ws ua=python-musicbrainz/0.7.3")).startsWith("n_req=100 ");
    assertThat(server.stats("ws headphones")).startsWith("n_req=100 ");
  }

  /** The 2012 rules' headphones mapping, expressed as a table, gives t/headphones.t's numbers. */
  @Test
  void case26HeadphonesWithThe2012Mapping() {
    RuleSet rules2012 = new RuleSet(
        List.of(new StatsOnlyHook(KeyPattern.exactly("ws ua=python-headphones/0.7.3"), null, false)),
        List.of(new KeyRewrite(KeyPattern.compile("(?i)headphones"), "ws ua=python-musicbrainz/0.7.3", true, null)),
        List.of(new Rule(KeyPattern.compile("^ws ua=python-musicbrainz/0\\.7\\.3$"), 500, 10, false, true, null, null),
            new Rule(KeyPattern.compile("^ws ua="), 1, 1, false, true, FixedReply.ALLOW, "none")),
        Rule.allowAllDefault());
    EngineHarness server = new EngineHarness(rules2012);
    for (int i = 0; i < 100; i++) {
      server.overLimit("ws ua=python-headphones/0.7.3");
      server.overLimit("ws ua=python-musicbrainz/0.7.3");
    }
    assertThat(server.stats("ws ua=python-headphones/0.7.3")).isEqualTo(
        "n_req=100 n_over=0 last_max_rate=0 key=ws ua=python-headphones/0.7.3");
    assertThat(server.stats("ws ua=python-musicbrainz/0.7.3")).startsWith("n_req=200 ");
  }

  /** t/benchmark.t only timed 100 000 requests; here they must simply all be answered. */
  @Test
  void case27BenchmarkWorkloadIsAnswered() {
    EngineHarness server = new EngineHarness(everyKey(22, 20, true, false));
    Random random = new Random(27);
    int answered = 0;
    for (int i = 0; i < 100_000; i++) {
      if (server.overLimit("key " + random.nextInt(10_000)) != null) {
        answered++;
      }
      server.advance(0.00001);
    }
    assertThat(answered).isEqualTo(100_000);
    assertThat(server.request("get_size")).isEqualTo("size=10000 keys=10000");
  }
}
