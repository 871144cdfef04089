package io.sluice.protocol.udp.rulefile;

import io.sluice.protocol.udp.rules.FixedReply;
import io.sluice.protocol.udp.rules.KeyResolution;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleAlgorithm;
import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.protocol.udp.rules.KeySemantics.BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuleSetReaderTest {

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static List<String> problems(Map<String, Object> table) {
    try {
      RuleSetReader.read(table);
    } catch (RuleConfigException invalid) {
      return invalid.problems();
    }
    throw new AssertionError("expected the table to be rejected");
  }

  @Test
  void emptyOrNullTableIsAllowAll() throws Exception {
    assertThat(RuleSetReader.read(map()).defaultRule()).isEqualTo(Rule.allowAllDefault());
    assertThat(RuleSetReader.read(null).rules()).isEmpty();
  }

  @Test
  void readsEverySection() throws Exception {
    RuleSet rules = RuleSetReader.read(map(
        "stats-only", List.of(map("pattern", "(?i)\\b(picard)\\b", "stats-key", "$1", "lowercase", true),
            map("pattern", "^exact$")),
        "rewrites", List.of(map("pattern", "_.*", "replacement", ""),
            map("pattern", "x", "replacement", "whole", "whole-key", true, "unless", "keep")),
        "rules", List.of(map("pattern", "^a$", "limit", 5, "period", 2.5, "strict", true),
            map("pattern", "^b$", "limit", 1, "period", 1, "keep-stats", true,
                "fixed-reply", map("over", true, "rate", 7.5), "substitute-key", "bee")),
        "default", map("limit", 10, "period", 20)));

    assertThat(rules.statsOnlyKeys("PiCaRd", BYTES)).containsExactly("picard");
    assertThat(rules.statsOnlyKeys("exact", BYTES)).containsExactly("exact");
    assertThat(rules.rewrite("a_1", BYTES)).isEqualTo("a");
    assertThat(rules.rewrite("axe", BYTES)).isEqualTo("whole");
    assertThat(rules.rewrite("keep x", BYTES)).isEqualTo("keep x");

    Rule a = rules.ruleFor("a", BYTES);
    assertThat(a.limit()).isEqualTo(5);
    assertThat(a.periodSeconds()).isEqualTo(2.5);
    assertThat(a.strict()).isTrue();
    assertThat(a.keepStats()).isFalse();
    assertThat(a.hasFixedReply()).isFalse();
    assertThat(a.stateKeyFor("a")).isEqualTo("a");

    KeyResolution b = rules.resolve("b_2", BYTES);
    assertThat(b.rewrittenKey()).isEqualTo("b");
    assertThat(b.rule().fixedReply()).isEqualTo(new FixedReply(true, 7.5));
    assertThat(b.stateKey()).isEqualTo("bee");

    KeyResolution other = rules.resolve("zzz", BYTES);
    assertThat(other.usedDefaultRule()).isTrue();
    assertThat(other.rule()).isEqualTo(new Rule(null, 10, 20, false, false, null, null));
    assertThat(other.stateKey()).isEqualTo("zzz");
  }

  @Test
  void aRuleOrTheDefaultMayChooseTheSlidingWindow() throws Exception {
    RuleSet rules = RuleSetReader.read(map(
        "rules", List.of(map("pattern", "^a$", "limit", 5, "period", 2.5, "algorithm", "sliding-window"),
            map("pattern", "^b$", "limit", 5, "period", 1, "algorithm", "decaying-rate")),
        "default", map("limit", 10, "period", 20, "algorithm", "sliding-window")));

    assertThat(rules.ruleFor("a", BYTES)).isEqualTo(
        Rule.limit("^a$", 5, 2.5, false).withAlgorithm(RuleAlgorithm.SLIDING_WINDOW));
    assertThat(rules.ruleFor("b", BYTES).algorithm()).isEqualTo(RuleAlgorithm.DECAYING_RATE);
    assertThat(rules.defaultRule().algorithm()).isEqualTo(RuleAlgorithm.SLIDING_WINDOW);
    assertThat(RuleSetReader.read(map("default", map("limit", 1, "period", 1))).defaultRule().algorithm())
        .isEqualTo(RuleAlgorithm.DECAYING_RATE);
  }

  @Test
  void aSlidingWindowThatCannotBeCountedIsRefusedWithItsLocation() {
    Map<String, Object> table = map(
        "rules", List.of(map("pattern", "^a$", "limit", 2.5, "period", 1, "algorithm", "sliding-window"),
            map("pattern", "^b$", "limit", 0, "period", 1, "algorithm", "sliding-window"),
            map("pattern", "^c$", "limit", 3, "period", 1, "strict", true, "algorithm", "sliding-window"),
            map("pattern", "^d$", "limit", 3, "period", 1, "algorithm", "sliding_window"),
            map("pattern", "^e$", "limit", 3, "period", 1, "algorithm", 7)),
        "default", map("limit", 3, "period", 1, "algorithm", "fixed-window"));

    assertThat(problems(table)).containsExactly(
        "rules[0].algorithm: a sliding window's limit must be a whole number ≥ 1, got 2.5",
        "rules[1].algorithm: a sliding window's limit must be a whole number ≥ 1, got 0.0",
        "rules[2].algorithm: a sliding window cannot be strict: it never counts a refused use",
        "rules[3].algorithm: unknown algorithm 'sliding_window' (known: decaying-rate, sliding-window)",
        "rules[4].algorithm: must be a string, got integer 7 (quote it)",
        "default.algorithm: unknown algorithm 'fixed-window' (known: decaying-rate, sliding-window)");
  }

  @Test
  void firstMatchingRuleWins() throws Exception {
    RuleSet rules = RuleSetReader.read(map("rules", List.of(
        map("pattern", "^ws ", "limit", 1, "period", 1),
        map("pattern", "^ws global$", "limit", 2, "period", 1))));
    assertThat(rules.ruleFor("ws global", BYTES).limit()).isEqualTo(1);
  }

  @Test
  void rewritesApplyInOrderEachToTheFirstOccurrence() throws Exception {
    RuleSet rules = RuleSetReader.read(map("rewrites", List.of(
        map("pattern", "a", "replacement", "b"),
        map("pattern", "b(.)", "replacement", "[$1]"))));
    assertThat(rules.rewrite("aaxbz", BYTES)).isEqualTo("[a]xbz");
  }

  @Test
  void fixedReplyRateDefaultsToZero() throws Exception {
    RuleSet rules = RuleSetReader.read(map("default", map("limit", 1, "period", 1, "fixed-reply", map("over", false))));
    assertThat(rules.defaultRule().fixedReply()).isEqualTo(FixedReply.ALLOW);
  }

  @Test
  void everyProblemIsReportedWithItsLocation() {
    List<Object> rules = new ArrayList<>();
    rules.add(map("pattern", "^ok$", "limit", 1, "period", 1));
    rules.add(map("pattern", "(", "limit", -1, "period", 0, "strict", "yes", "perod", 3));
    rules.add(map("limit", "ten", "fixed-reply", map("rate", -1, "colour", "red")));
    rules.add("not a map");
    Map<String, Object> table = map(
        "rules", rules,
        "rewrites", List.of(map("pattern", "(a)", "replacement", "$2"), map("pattern", "a", "replacement", 5)),
        "stats-only", "not a list",
        "default", map("pattern", "x", "limit", 1, "period", Double.POSITIVE_INFINITY),
        "colour", "blue");

    assertThat(problems(table)).containsExactlyInAnyOrder(
        "the table: unknown field 'colour' (known: stats-only, rewrites, rules, default)",
        "stats-only: must be a list, got the string \"not a list\"",
        "rewrites[0].replacement: replacement $2: refers to group $2 but the pattern has 1 group(s)",
        "rewrites[1].replacement: must be a string, got integer 5 (quote it)",
        "rules[1]: unknown field 'perod' (known: pattern, limit, period, strict, keep-stats, fixed-reply, substitute-key, algorithm)",
        "rules[1].pattern: invalid regular expression (: Unclosed group near index 1",
        "rules[1].limit: must be at least 0, got -1",
        "rules[1].period: must be greater than 0 seconds, got 0",
        "rules[1].strict: must be true or false, got the string \"yes\"",
        "rules[2].pattern: missing",
        "rules[2].limit: must be a number, got the string \"ten\"",
        "rules[2].period: missing",
        "rules[2].fixed-reply: unknown field 'colour' (known: over, rate)",
        "rules[2].fixed-reply.over: missing",
        "rules[2].fixed-reply.rate: must be at least 0, got -1",
        "rules[3]: must be a mapping of fields, got the string \"not a map\"",
        "default: unknown field 'pattern' (known: limit, period, strict, keep-stats, fixed-reply, substitute-key, algorithm)",
        "default.period: must be a finite number, got Infinity");
  }

  @Test
  void negativePeriodIsAConfigError() {
    assertThatThrownBy(() -> RuleSetReader.read(map("rules", List.of(map("pattern", "x", "limit", 1, "period", -20)))))
        .isInstanceOf(RuleConfigException.class)
        .hasMessage("rule table: rules[0].period: must be greater than 0 seconds, got -20");
  }
}
