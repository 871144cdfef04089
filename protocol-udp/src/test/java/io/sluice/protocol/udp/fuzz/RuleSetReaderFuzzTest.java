package io.sluice.protocol.udp.fuzz;

import io.sluice.protocol.udp.rulefile.RuleConfigException;
import io.sluice.protocol.udp.rulefile.RuleSetReader;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.yaml.ArbitraryYaml;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UDP rule table's reader against any document a YAML file could hold, built mostly from the
 * fields it knows: it answers a rule set or named problems, and nothing else escapes.
 */
class RuleSetReaderFuzzTest {

  private static final List<String> RULE_SECTIONS = List.of("stats-only", "rewrites", "rules", "default", "unchecked");
  private static final List<String> RULE_FIELDS = List.of("pattern", "limit", "period", "strict", "keep-stats",
      "fixed-reply", "substitute-key", "replacement", "whole-key", "unless", "stats-key", "lowercase", "over", "rate");

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
  Arbitrary<Map<String, Object>> ruleTables() {
    Arbitrary<Object> entry = ArbitraryYaml.mappingMostlyOf(RULE_FIELDS, ArbitraryYaml.values(2));
    Arbitrary<Object> section = Arbitraries.oneOf(entry.list().ofMaxSize(3).map(list -> (Object) list), entry,
        ArbitraryYaml.values(1));
    return Arbitraries.maps(Arbitraries.oneOf(Arbitraries.of(RULE_SECTIONS), Arbitraries.strings().ofMaxLength(8)), section)
        .ofMaxSize(4);
  }
}
