package io.sluice.verticles.engine.fuzz;

import io.sluice.protocol.udp.rulefile.RuleConfigException;
import io.sluice.protocol.udp.rulefile.RuleSetReader;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.strategies.policy.PolicyParser;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The readers of the check API's policies and of the UDP rule table, against any document a YAML
 * file could hold (maps, lists, strings, numbers, booleans, nulls, nested), built mostly from the
 * fields they know: each answers a value or named problems, and nothing else escapes.
 */
class ConfigReadersFuzzTest {

  private static final List<String> POLICY_FIELDS = List.of("strategy", "limit", "period", "rate", "burst", "key",
      "quota", "quotas", "window", "strict", "primary", "secondary", "legacy-headers", "name");
  private static final List<String> STRATEGIES = List.of("token_bucket", "fixed_window", "leaky_bucket", "gcra",
      "composite", "decaying_rate");
  private static final List<String> RULE_SECTIONS = List.of("stats-only", "rewrites", "rules", "default", "unchecked");
  private static final List<String> RULE_FIELDS = List.of("pattern", "limit", "period", "strict", "keep-stats",
      "fixed-reply", "substitute-key", "replacement", "whole-key", "unless", "stats-key", "lowercase", "over", "rate");

  @Property
  void policiesAreReadOrRefusedWithProblems(@ForAll("policyNames") String name, @ForAll("policySpecs") Object spec) {
    List<String> problems = new ArrayList<>();
    Policy policy = PolicyParser.parse(name, spec, problems);
    if (policy == null) {
      assertThat(problems).isNotEmpty().allSatisfy(problem -> assertThat(problem).isNotBlank());
    }
  }

  @Property(edgeCases = EdgeCasesMode.NONE)
  void ruleTablesAreReadOrRefusedWithProblems(@ForAll("ruleTables") Map<String, Object> table) {
    try {
      RuleSet rules = RuleSetReader.read(table);
      assertThat(rules).isNotNull();
    } catch (RuleConfigException refused) {
      assertThat(refused.getMessage()).isNotBlank();
    }
  }

  @Provide
  Arbitrary<String> policyNames() {
    return Arbitraries.oneOf(Arbitraries.of("api", "login", "a-b_c"), Arbitraries.strings().ofMaxLength(20));
  }

  @Provide
  Arbitrary<Object> policySpecs() {
    return Arbitraries.oneOf(mapOf(POLICY_FIELDS, Arbitraries.oneOf(values(2), Arbitraries.of(STRATEGIES).map(s -> s))),
        values(2));
  }

  @Provide
  Arbitrary<Map<String, Object>> ruleTables() {
    Arbitrary<Object> entry = mapOf(RULE_FIELDS, values(2));
    Arbitrary<Object> section = Arbitraries.oneOf(entry.list().ofMaxSize(3).map(list -> (Object) list), entry, values(1));
    return Arbitraries.maps(Arbitraries.oneOf(Arbitraries.of(RULE_SECTIONS), Arbitraries.strings().ofMaxLength(8)), section)
        .ofMaxSize(4);
  }

  /** A map of mostly known field names to {@code fieldValues}. */
  private static Arbitrary<Object> mapOf(List<String> fields, Arbitrary<Object> fieldValues) {
    Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of(fields), Arbitraries.of(fields),
        Arbitraries.strings().ofMaxLength(10));
    return Arbitraries.maps(names, fieldValues).ofMaxSize(6).map(map -> (Object) map);
  }

  /** Any YAML scalar, or lists and maps of them, {@code depth} levels deep at most. */
  private static Arbitrary<Object> values(int depth) {
    Arbitrary<Object> scalars = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(30).map(s -> s),
        Arbitraries.of("10/s", "1m", "5s", "100ms", "-1s", "ip", "header:x-user", "path", "^/api/.*", "(", "0", "1e400")
            .map(s -> s),
        Arbitraries.integers().map(i -> i),
        Arbitraries.longs().map(l -> l),
        Arbitraries.doubles().map(d -> d),
        Arbitraries.of(true, false).map(b -> b),
        Arbitraries.just(null));
    if (depth == 0) {
      return scalars;
    }
    Arbitrary<Object> inner = values(depth - 1);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, scalars),
        net.jqwik.api.Tuple.of(1, inner.list().ofMaxSize(4).map(list -> (Object) list)),
        net.jqwik.api.Tuple.of(1, Arbitraries.maps(Arbitraries.strings().ofMaxLength(8), inner).ofMaxSize(4)
            .map(map -> (Object) map)));
  }
}
