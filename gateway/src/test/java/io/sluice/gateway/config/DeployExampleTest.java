package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Keeps deploy/sluice.yaml honest: it must load, change nothing, and mention every option, so
 * that adding a row to the table without documenting it in the example fails the build.
 */
class DeployExampleTest {

  /** Surefire runs in the module directory; the example lives at the repository top level. */
  private static final Path EXAMPLE = Path.of("..", "deploy", "sluice.yaml");

  private String text;

  @BeforeEach
  void readExample() throws Exception {
    assumeTrue(Files.isRegularFile(EXAMPLE), "deploy/sluice.yaml not found from " + Path.of("").toAbsolutePath());
    text = Files.readString(EXAMPLE);
  }

  @Test
  void theExampleLoadsAndEqualsTheBuiltInDefaults() throws Exception {
    SluiceConfig fromExample = run("--config", EXAMPLE.toString());
    SluiceConfig defaults = run();

    for (Option<?> option : Options.ALL) {
      if (option != Options.CONFIG && !Options.isAction(option)) {
        assertThat(fromExample.value(option)).as(option.flag()).isEqualTo(defaults.value(option));
      }
    }
  }

  @Test
  void theExampleMentionsEveryKeyFlagAndVariable() {
    for (Option<?> option : Options.ALL) {
      option.yamlKey().ifPresent(key -> {
        String lastSegment = key.substring(key.lastIndexOf('.') + 1);
        assertThat(text).as(key).containsPattern("(?m)^\\s*" + Pattern.quote(lastSegment) + ":");
        assertThat(text).contains(option.flag()).contains(option.environmentVariable().orElseThrow());
      });
    }
  }
}
