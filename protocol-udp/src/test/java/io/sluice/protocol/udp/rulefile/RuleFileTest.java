package io.sluice.protocol.udp.rulefile;

import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A rules file's text: its problems name the file, and the line of the field at fault. */
class RuleFileTest {

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  private static String refusal(String text) {
    try {
      RuleFile.read(text, "rules.yaml");
    } catch (RuleFileException refused) {
      return refused.getMessage();
    }
    throw new AssertionError("expected the file to be refused");
  }

  @Test
  void aValidFileIsItsTable() throws Exception {
    RuleSet rules = RuleFile.read(lines(
        "rules:",
        "  - pattern: '^ws '",
        "    limit: 22",
        "    period: 20",
        "    strict: true"), "rules.yaml");
    assertThat(rules.rules()).hasSize(1);
    assertThat(rules.rules().get(0).limit()).isEqualTo(22);
    assertThat(rules.rules().get(0).strict()).isTrue();
  }

  @Test
  void aProblemNamesTheLineOfItsField() {
    assertThat(refusal(lines(
        "rules:",
        "  - pattern: '^ws/'",
        "    limit: 10",
        "    period: 5",
        "  - pattern: '^ws/(unclosed'",
        "    limit: 10",
        "    period: 5")))
        .isEqualTo("rules.yaml:5: rules[1].pattern: invalid regular expression ^ws/(unclosed: Unclosed group near index 13");
  }

  @Test
  void aMissingFieldIsPlacedAtItsEntryAndEveryProblemIsListed() {
    assertThat(refusal(lines(
        "rules:",
        "  - limit: 10",
        "    period: 0",
        "colour: blue"))).isEqualTo(String.join(System.lineSeparator(),
        "rules.yaml: 3 problems:",
        "  - rules.yaml: the table: unknown field 'colour' (known: stats-only, rewrites, rules, default)",
        "  - rules.yaml:2: rules[0].pattern: missing",
        "  - rules.yaml:3: rules[0].period: must be greater than 0 seconds, got 0"));
  }

  @Test
  void malformedYamlNamesItsLine() {
    assertThat(refusal(lines(
        "rules:",
        "  - pattern: 'unclosed",
        "    limit: 1"))).startsWith("rules.yaml:4: malformed YAML: ");
  }

  @Test
  void aTableIsAMapping() {
    assertThat(refusal(lines("- pattern: x")))
        .isEqualTo("rules.yaml: a rule table is a YAML mapping (stats-only, rewrites, rules, default)");
    assertThatThrownBy(() -> RuleFile.read("", "empty.yaml"))
        .isInstanceOf(RuleFileException.class)
        .hasMessage("empty.yaml: a rule table is a YAML mapping (stats-only, rewrites, rules, default)");
  }
}
