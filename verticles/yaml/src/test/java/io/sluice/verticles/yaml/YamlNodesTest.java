package io.sluice.verticles.yaml;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class YamlNodesTest {

  private static PlainDocument plain(String... lines) {
    return YamlNodes.plain(new Yaml(new LoaderOptions()).compose(new StringReader(String.join("\n", lines))));
  }

  @Test
  void scalarsKeepTheirExactTextAndTildeIsNull() {
    PlainDocument document = plain("a: 0x1F", "b: 010", "c: ~", "d: true", "e: [1.50, '2']");

    // In document order, as the user wrote it.
    assertThat(document.value()).hasToString("{a=0x1F, b=010, c=null, d=true, e=[1.50, 2]}");
    assertThat(document.problems()).isEmpty();
  }

  @Test
  void everyFieldAndItemHasItsLineByPath() {
    PlainDocument document = plain(
        "login:",
        "  strategy: fixed_window",
        "  quotas:",
        "    - name: minute",
        "      limit: 5");

    assertThat(document.lineOf("")).isEqualTo(1);
    assertThat(document.lineOf("login")).isEqualTo(1);
    assertThat(document.lineOf("login.strategy")).isEqualTo(2);
    assertThat(document.lineOf("login.quotas[0]")).isEqualTo(4);
    assertThat(document.lineOf("login.quotas[0].limit")).isEqualTo(5);
    assertThat(document.lineOf("login.quotas[1]")).isZero();
  }

  @Test
  void keysGivenTwiceOrNotPlainAreProblemsWithTheirLineAndLeftOut() {
    PlainDocument document = plain("burst: 5", "rate: 1", "burst: 6", "[a, b]: 7");

    assertThat(document.problems()).containsExactly(
        "'burst' is given twice (line 3)", "field names must be plain names (line 4)");
    assertThat(document.value()).hasToString("{burst=5, rate=1}");
  }

  @Test
  void describeNamesWhatAValueIs() {
    assertThat(Arrays.asList(null, Map.of(), List.of(), "ten", 5, true).stream().map(ConfigValues::describe))
        .containsExactly("nothing", "a mapping", "a list", "the string \"ten\"", "integer 5", "boolean true");
  }
}
