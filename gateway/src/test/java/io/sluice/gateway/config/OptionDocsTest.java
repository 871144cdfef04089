package io.sluice.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class OptionDocsTest {

  @Test
  void helpShowsBothUsageLines() {
    assertThat(OptionDocs.helpText())
        .contains("java -jar sluice.jar [options]")
        .contains("java -jar sluice.jar bench [options]");
  }

  @Test
  void helpDocumentsEveryOptionWithItsSourcesAndDefault() {
    String help = OptionDocs.helpText();
    for (Option<?> option : Options.ALL) {
      assertThat(help).contains(option.flag()).contains(option.description());
      option.environmentVariable().ifPresent(variable -> assertThat(help).contains("env " + variable));
      option.yamlKey().ifPresent(key -> assertThat(help).contains("yaml " + key));
      if (!Options.isAction(option)) {
        assertThat(help).contains("default " + option.defaultDescription());
      }
    }
  }

  @Test
  void helpDoesNotDependOnTheMachine() {
    assertThat(OptionDocs.helpText()).contains("default number of available processors");
  }

  @Test
  void helpIsPlainAscii() {
    assertThat(OptionDocs.helpText().chars().allMatch(c -> c < 128)).isTrue();
  }

  @Test
  void markdownTableHasAHeaderAndOneRowPerOption() {
    List<String> lines = Arrays.asList(OptionDocs.markdownTable().split(System.lineSeparator()));

    assertThat(lines).hasSize(2 + Options.ALL.size());
    assertThat(lines.get(0)).isEqualTo("| Flag | Environment variable | YAML key | Default | Accepted values | Description |");
    assertThat(lines).allSatisfy(line -> assertThat(line).startsWith("|").endsWith("|"));
  }

  @Test
  void markdownTableContainsEveryOption() {
    String table = OptionDocs.markdownTable();
    for (Option<?> option : Options.ALL) {
      String row = Arrays.stream(table.split(System.lineSeparator()))
          .filter(line -> line.matches("\\| `(-\\w, )?" + option.flag() + "[` ].*"))
          .collect(Collectors.joining());
      assertThat(row).as(option.flag()).isNotEmpty().contains(option.description());
      option.environmentVariable().ifPresent(variable -> assertThat(row).contains("`" + variable + "`"));
      option.yamlKey().ifPresent(key -> assertThat(row).contains("`" + key + "`"));
    }
  }

  @Test
  void markdownTableEscapesPipesInCells() {
    assertThat(OptionDocs.markdownTable()).contains("uint8\\|uint16\\|uint32\\|uint64");
  }

  @Test
  void markdownTableShowsTheDocumentedDefaults() {
    assertThat(OptionDocs.markdownTable())
        .contains("| `--tcp-port PORT` | `SLUICE_TCP_PORT` | `tcp.port` | 9000 | 0..65535 |")
        .contains("| `--auth-token TOKEN` | `SLUICE_AUTH_TOKEN` | `auth-token` | none |")
        .contains("| `-h, --help` | - | - | - | - |")
        .contains("| `-V, --version` | - | - | - | - |");
  }
}
