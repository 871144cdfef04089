package io.sluice.gateway;

import io.sluice.gateway.cli.Cli;
import io.sluice.gateway.cli.CliOptions;
import io.sluice.gateway.config.Option;
import io.sluice.gateway.config.Options;
import io.sluice.gateway.process.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The generated bash completion, run by a real bash: every option of both tables completes. */
class CompletionTest {

  @TempDir
  Path directory;

  /** What bash offers for the command line {@code words}, the last one being completed. */
  private List<String> complete(String... words) throws Exception {
    Path script = Files.writeString(directory.resolve("sluice.bash"), Completion.bash());
    StringBuilder array = new StringBuilder();
    for (String word : words) {
      array.append(" '").append(word).append('\'');
    }
    ChildProcess.Finished bash = ChildProcess.run(List.of("bash", "-c", "source " + script + "; COMP_WORDS=(" + array
        + "); COMP_CWORD=" + (words.length - 1) + "; _sluice; printf '%s\\n' \"${COMPREPLY[@]}\""), Map.of(), directory);
    assertThat(bash.status()).as(bash.output()).isZero();
    return bash.output().isEmpty() ? List.of() : List.of(bash.output().split("\n"));
  }

  @Test
  void everyServerOptionCompletes() throws Exception {
    List<String> offered = complete("sluice", "--");
    List<String> flags = new ArrayList<>();
    for (Option<?> option : Options.ALL) {
      flags.add(option.flag());
    }
    assertThat(offered).containsAll(flags);
    assertThat(complete("sluice", "--log-f")).containsExactly("--log-format");
    assertThat(complete("sluice", "--log-format", "")).containsExactly("text", "json");
    assertThat(complete("sluice", "--value-size", "uint1")).containsExactly("uint16");
    assertThat(complete("sluice", "c")).contains("cli", "completion");
  }

  @Test
  void filesCompleteAfterFileOptions() throws Exception {
    Files.writeString(directory.resolve("rules-table.yaml"), "{}");
    assertThat(complete("sluice", "--rules", directory.resolve("rules-t").toString()))
        .containsExactly(directory.resolve("rules-table.yaml").toString());
  }

  @Test
  void theClientsOptionsAndCommandsComplete() throws Exception {
    assertThat(complete("sluice", "cli", "")).containsAll(Cli.commandWords())
        .containsAll(CliOptions.ALL.stream().map(CliOptions.Row::flag).toList());
    assertThat(complete("sluice", "cli", "--port", "9000", "in")).containsExactly("insert", "info");
    assertThat(complete("sluice", "cli", "--value-size", "")).containsExactly("uint8", "uint16", "uint32", "uint64");
    assertThat(complete("sluice", "cli", "c")).containsExactly("connections", "check");
    Files.writeString(directory.resolve("client-ca.pem"), "");
    assertThat(complete("sluice", "cli", "--tls-ca", directory.resolve("client-c").toString()))
        .containsExactly(directory.resolve("client-ca.pem").toString());
  }
}
