package io.sluice.verticles.engine.fuzz;

import io.sluice.verticles.yaml.ArbitraryYaml;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.strategies.policy.PolicyParser;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reader of the check API's policies against any document a YAML file could hold, built mostly
 * from the fields it knows: it answers a policy or named problems, and nothing else escapes.
 */
class PolicyParserFuzzTest {

  private static final List<String> POLICY_FIELDS = List.of("strategy", "limit", "period", "rate", "burst", "key",
      "quota", "quotas", "window", "strict", "primary", "secondary", "legacy-headers", "name");
  private static final List<String> STRATEGIES = List.of("token_bucket", "fixed_window", "leaky_bucket", "gcra",
      "composite", "decaying_rate", "sliding_window");

  @Property
  void policiesAreReadOrRefusedWithProblems(@ForAll("policyNames") String name, @ForAll("policySpecs") Object spec) {
    List<String> problems = new ArrayList<>();
    Policy policy = PolicyParser.parse(name, spec, problems);
    if (policy == null) {
      assertThat(problems).isNotEmpty().allSatisfy(problem -> assertThat(problem).isNotBlank());
    }
  }

  @Provide
  Arbitrary<String> policyNames() {
    return Arbitraries.oneOf(Arbitraries.of("api", "login", "a-b_c"), Arbitraries.strings().ofMaxLength(20));
  }

  @Provide
  Arbitrary<Object> policySpecs() {
    return Arbitraries.oneOf(ArbitraryYaml.mappingMostlyOf(POLICY_FIELDS,
        Arbitraries.oneOf(ArbitraryYaml.values(2), Arbitraries.of(STRATEGIES).map(s -> s))), ArbitraryYaml.values(2));
  }
}
