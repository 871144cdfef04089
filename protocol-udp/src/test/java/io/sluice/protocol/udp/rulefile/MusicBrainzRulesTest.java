package io.sluice.protocol.udp.rulefile;

import io.sluice.protocol.udp.rules.FixedReply;
import io.sluice.protocol.udp.rules.KeyPattern;
import io.sluice.protocol.udp.rules.KeyResolution;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static io.sluice.protocol.udp.rules.KeySemantics.BYTES;
import static org.assertj.core.api.Assertions.assertThat;

/** The shipped deploy/rules/musicbrainz.yaml against the HEAD table of spec §5.1, row by row. */
class MusicBrainzRulesTest {

  private static final RuleSet RULES = MusicBrainzRulesFile.load();

  private static Rule rate(String pattern, double limit, double period, boolean strict, boolean keepStats) {
    return new Rule(KeyPattern.compile(pattern), limit, period, strict, keepStats, null, null);
  }

  @Test
  void everyRowInOrder() {
    assertThat(RULES.rules()).containsExactly(
        rate("^([^\\s]*) cust=bbc$", 300, 20, false, true),
        rate("^([^\\s]*) cust=ia$", 220, 20, false, true),
        rate("^([^\\s]*) cust=7d$", 220, 20, false, true),
        rate("^([^\\s]*) internal$", 2000, 20, false, true),
        rate("^frontend ip=(\\d+\\.\\d+\\.\\d+\\.\\d+)$", 45, 20, true, false),
        rate("^ws ip=(\\d+\\.\\d+\\.\\d+\\.\\d+)$", 22, 20, true, false),
        rate("^search ip=(\\d+\\.\\d+\\.\\d+\\.\\d+)$", 22, 20, true, false),
        rate("^ws global$", 2500, 10, false, true),
        rate("^ws headphones$", 300, 10, false, true),
        rate("^ws ua=python-musicbrainz/0\\.7\\.3$", 500, 10, false, true),
        rate("^ws ua=generic-bad-ua$", 100, 10, false, true),
        rate("^ws ua=libvlc$", 125, 10, false, true),
        rate("^ws ua=nsplayer$", 125, 10, false, true),
        rate("^ws ua=-$", 500, 10, false, true),
        new Rule(KeyPattern.compile("^ws ua=$"), 1, 1, false, true, FixedReply.ALLOW, "none"));
    assertThat(RULES.defaultRule()).isEqualTo(Rule.allowAllDefault());
    assertThat(RULES.rewrites()).hasSize(8);
    assertThat(RULES.statsOnlyHooks()).hasSize(2);
  }

  @ParameterizedTest(name = "{0} → {1} (limit {2}/{3}, strict {4}, stats {5})")
  @CsvSource(delimiter = '|', value = {
      "ws cust=bbc            | ws cust=bbc        | 300  | 20 | false | true",
      "search ip=132.185.7.9  | search cust=bbc    | 300  | 20 | false | true",
      "ws ip=212.58.229.1     | ws cust=bbc        | 300  | 20 | false | true",
      "ws ip=207.241.224.1    | ws cust=ia         | 220  | 20 | false | true",
      "ws ip=207.241.239.77   | ws cust=ia         | 220  | 20 | false | true",
      "ws ip=84.45.16.4       | ws cust=7d         | 220  | 20 | false | true",
      "ws ip=81.153.103.174   | ws cust=7d         | 220  | 20 | false | true",
      "ws ip=10.1.1.5         | ws internal        | 2000 | 20 | false | true",
      "frontend ip=1.2.3.4    | frontend ip=1.2.3.4| 45   | 20 | true  | false",
      "ws ip=74.11.99.155     | ws ip=74.11.99.155 | 22   | 20 | true  | false",
      "ws ip=4.14.989.98      | ws ip=4.14.989.98  | 22   | 20 | true  | false",
      "ws ip=212.58.260.1     | ws ip=212.58.260.1 | 22   | 20 | true  | false",
      "ws ip=207.241.240.1    | ws ip=207.241.240.1| 22   | 20 | true  | false",
      "search ip=1.2.3.4      | search ip=1.2.3.4  | 22   | 20 | true  | false",
      "ws global              | ws global          | 2500 | 10 | false | true",
      "ws ua=python-headphones/0.7.3 | ws headphones | 300 | 10 | false | true",
      "ws ua=HeadPhones/1.0   | ws headphones      | 300  | 10 | false | true",
      "ws ua=python-musicbrainzngs/0.5devMODIFIED | ws headphones | 300 | 10 | false | true",
      "ws ua=python-musicbrainz/0.7.3 | ws ua=python-musicbrainz/0.7.3 | 500 | 10 | false | true",
      "ws ua=                 | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua=-                | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua= - -             | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua=Java/1.6.0_26    | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua=Python-urllib/2.7 | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua=Jakarta Commons-HttpClient/3.1 | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua=Apache-HttpClient/UNAVAILABLE (java 1.4) | ws ua=generic-bad-ua | 100 | 10 | false | true",
      "ws ua=libvlc           | ws ua=libvlc       | 125  | 10 | false | true",
      "ws ua=nsplayer         | ws ua=nsplayer     | 125  | 10 | false | true",
  })
  void keysRewriteAndMatchTheirRow(String key, String rewritten, double limit, double period, boolean strict,
      boolean keepStats) {
    KeyResolution resolution = RULES.resolve(key, BYTES);
    assertThat(resolution.rewrittenKey()).isEqualTo(rewritten);
    assertThat(resolution.usedDefaultRule()).isFalse();
    assertThat(resolution.rule().hasFixedReply()).isFalse();
    assertThat(resolution.rule().limit()).isEqualTo(limit);
    assertThat(resolution.rule().periodSeconds()).isEqualTo(period);
    assertThat(resolution.rule().strict()).isEqualTo(strict);
    assertThat(resolution.rule().keepStats()).isEqualTo(keepStats);
    assertThat(resolution.stateKey()).isEqualTo(rewritten);
  }

  @ParameterizedTest(name = "{0} → default ({1})")
  @CsvSource(delimiter = '|', value = {
      "''                              | ''",
      "ws ua=Mozilla/5.0               | ws ua=Mozilla/5.0",
      "ws ua=Java/1.6.0_26 extra       | ws ua=Java/1.6.0_26 extra",
      "ws ip=1.2.3                     | ws ip=1.2.3",
      "ws ip=1.2.3.4 x                 | ws ip=1.2.3.4 x",
      "WS global                       | WS global",
      "unspecified ua=                 | unspecified ua=generic-bad-ua",
      "ws ua=python-musicbrainz/0.7.3 - | ws ua=python-musicbrainz/0.7.3 -",
      "ws ip=132.185.1.2x              | ws ip=132.185.1.2x",
      "ws ip=10.1.1.5.6                | ws internal.6",
      "ws ip=10.1.1.5\u00E9 x           | ws internal\u00E9 x",
      "ws ua=python-musicbrainzngs/0.6 | ws ua=python-musicbrainz-ngs/0.6",
      "PiCard/1.0                      | PiCard/1.0",
  })
  void otherKeysFallToTheDefault(String key, String rewritten) {
    KeyResolution resolution = RULES.resolve(key, BYTES);
    assertThat(resolution.rewrittenKey()).isEqualTo(rewritten);
    assertThat(resolution.usedDefaultRule()).isTrue();
    assertThat(resolution.stateKey()).isEqualTo("default");
    assertThat(resolution.rule().fixedReply()).isEqualTo(FixedReply.ALLOW);
    assertThat(resolution.rule().keepStats()).isTrue();
  }

  @Test
  void theUaRewriteIsSkippedForPythonMusicbrainz() {
    assertThat(RULES.rewrite("ws ua=python-musicbrainz/0.7.3 ua=", BYTES)).isEqualTo("ws ua=python-musicbrainz/0.7.3 ua=");
    assertThat(RULES.rewrite("ws ua= x ua=", BYTES)).isEqualTo("ws ua= x ua=generic-bad-ua");
  }

  @Test
  void theRowsForAMissingUaAreUnreachableAsInTheOriginal() {
    assertThat(RULES.resolve("ws ua=", BYTES).rule().hasFixedReply()).isFalse();
    assertThat(RULES.ruleFor("ws ua=", BYTES).substituteKey()).as("reachable only without rewriting").isEqualTo("none");
    assertThat(RULES.ruleFor("ws ua=-", BYTES).limit()).isEqualTo(500);
  }

  @Test
  void statsOnlyHooksLookAtTheKeyAsSent() {
    assertThat(RULES.statsOnlyKeys("ws ua=python-headphones/0.7.3", BYTES)).containsExactly("ws ua=python-headphones/0.7.3");
    assertThat(RULES.statsOnlyKeys("ws ua=python-headphones/0.7.4", BYTES)).isEmpty();
    assertThat(RULES.statsOnlyKeys("ws ua=PiCard/1.0", BYTES)).containsExactly("picard");
    assertThat(RULES.statsOnlyKeys("ws ua=Mozilla/5.0 (compatible; Googlebot/2.1)", BYTES)).containsExactly("googlebot");
    assertThat(RULES.statsOnlyKeys("ws ua=XBMC/12 VOX", BYTES)).as("first match only").containsExactly("xbmc");
    assertThat(RULES.statsOnlyKeys("ws ua=python-musicbrainz-ngs/0.6", BYTES)).containsExactly("python-musicbrainz-ngs");
    assertThat(RULES.statsOnlyKeys("ws ua=python-musicbrainzngs/0.6", BYTES)).as("before the rename").isEmpty();
    assertThat(RULES.statsOnlyKeys("ws ua=picardy", BYTES)).isEmpty();
    assertThat(RULES.statsOnlyKeys("ws ua=jaikoz_x", BYTES)).as("_ is a word character").isEmpty();
    assertThat(RULES.statsOnlyKeys("ws ua=banshee\u00E9", BYTES)).containsExactly("banshee");
  }

  @Test
  void resolutionCarriesTheStatsOnlyKeysAndTheRewrittenState() {
    KeyResolution resolution = RULES.resolve("ws ua=python-headphones/0.7.3", BYTES);
    assertThat(resolution.statsOnlyKeys()).isEqualTo(List.of("ws ua=python-headphones/0.7.3"));
    assertThat(resolution.stateKey()).isEqualTo("ws headphones");
  }
}
