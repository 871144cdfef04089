package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.failure;
import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.verticles.strategies.policy.Policy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policies: section of the config file, next to the options it already holds. */
class PolicySectionTest {

  @TempDir
  Path directory;

  private Path write(String yaml) throws Exception {
    Path file = directory.resolve("sluice.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  @Test
  void policiesAreReadInOrderAlongsideOptions() throws Exception {
    Path file = write("""
        http:
          port: 9302
        policies:
          per-key-5-per-10s:
            strategy: fixed_window
            limit: 5
            window: 10s
            key: param | header:X-Api-Key
          burst:
            strategy: token_bucket
            burst: 20
            rate: 5
        """);
    SluiceConfig config = run("--config", file.toString());
    assertThat(config.httpPort()).isEqualTo(9302);
    assertThat(config.policies().all()).extracting(Policy::name).containsExactly("per-key-5-per-10s", "burst");
    assertThat(config.policies().get("per-key-5-per-10s").strategy()).isInstanceOf(FixedWindow.class);
    assertThat(config.policies().get("per-key-5-per-10s").key().spelling()).isEqualTo("param | header:X-Api-Key");
    assertThat(config.policies().get("burst").strategy()).isInstanceOf(TokenBucket.class);
  }

  @Test
  void withoutAFileOrASectionThereAreNoPolicies() throws Exception {
    assertThat(run().policies().isEmpty()).isTrue();
    assertThat(run("--config", write("tcp.port: 9000\npolicies:\n").toString()).policies().isEmpty()).isTrue();
  }

  @Test
  void problemsNameTheFileLinePolicyAndField() throws Exception {
    Path file = write("""
        policies:
          good:
            strategy: gcra
            burst: 3
            rate: 5
          bad:
            strategy: token_bucket
            burst: many
            rate: 5
          bad:
            strategy: gcra
            burst: 1
            rate: 1
        tcp.port: nope
        """);
    ConfigException failure = failure("--config", file.toString());
    assertThat(failure.problems()).containsExactlyInAnyOrder(
        "config file " + file + ":6: policy 'bad': 'burst' must be a whole number from 1 to 9223372036854775807, was 'many'",
        "config file " + file + ":10: policy 'bad' is defined twice (first at line 6)",
        "--tcp-port: invalid value 'nope' from config file " + file + ":14 (tcp.port): expected an integer in 0..65535");
  }

  @Test
  void theSectionMustBeAMapping() throws Exception {
    Path file = write("""
        policies:
          - strategy: gcra
        """);
    assertThat(failure("--config", file.toString()).problems()).containsExactly("config file " + file
        + ":2: 'policies' is a mapping of policy name to definition, such as per-key-5-per-10s: {strategy: fixed_window,"
        + " limit: 5, window: 10s}");
  }

  @Test
  void theSectionGivenTwiceIsAProblem() throws Exception {
    Path file = write("""
        policies:
          a: {strategy: gcra, burst: 1, rate: 1}
        policies:
          b: {strategy: gcra, burst: 1, rate: 1}
        """);
    assertThat(failure("--config", file.toString()).problems())
        .containsExactly("config file " + file + ":3: 'policies' is given twice (first at line 1)");
  }

  @Test
  void aFieldGivenTwiceIsAProblem() throws Exception {
    Path file = write("""
        policies:
          p:
            strategy: gcra
            burst: 3
            burst: 4
            rate: 5
        """);
    assertThat(failure("--config", file.toString()).problems())
        .containsExactly("config file " + file + ":2: policy 'p': 'burst' is given twice (line 5)");
  }

  /** A Throttr GET of a state longer than the value size can announce would answer 00: refused at start. */
  @Test
  void aPolicyWhoseStatesDoNotFitTheValueSizeIsRefused() throws Exception {
    StringBuilder yaml = new StringBuilder("policies:\n  small: {strategy: gcra, burst: 3, rate: 5}\n"
        + "  eight-quotas:\n    strategy: fixed_window\n    quotas:\n");
    for (int i = 1; i <= 8; i++) {
      yaml.append("      - {name: quota-number-").append(i).append(", limit: ").append(1000 + i)
          .append(", window: ").append(i).append("h}\n");
    }
    Path file = write(yaml.toString());
    assertThat(failure("--config", file.toString(), "--value-size", "uint8").problems()).containsExactly(
        "policy 'eight-quotas' keeps states of up to 332 bytes, more than --value-size uint8 (command line) lets a"
            + " value have (255): use a wider value size, or fewer or shorter quota names");
    assertThat(run("--config", file.toString(), "--value-size", "uint16").policies().all()).hasSize(2);
  }

  /** SIGHUP: a typo in one policy refuses the policies alone; the other settings still read. */
  @Test
  void aRereadSetsPolicyProblemsApartFromTheOtherSettings() throws Exception {
    Path file = write("""
        udp.rules: rules.yaml
        policies:
          good: {strategy: gcra, burst: 3, rate: 5}
          typo: {strategy: gcra, burst: 3, rate: fast}
        """);
    java.util.List<String> args = java.util.List.of("--config", file.toString());

    Reread reread = ConfigLoader.reread(args, java.util.Map.of());

    assertThat(reread.config().rulesFile()).contains(Path.of("rules.yaml"));
    assertThat(reread.policyProblems()).singleElement().asString()
        .startsWith("config file " + file + ":4: policy 'typo': ").contains("fast");
    org.assertj.core.api.Assertions.assertThatThrownBy(reread::policies).isInstanceOf(ConfigException.class)
        .hasMessage(reread.policyProblems().get(0));
    assertThat(failure(args.toArray(String[]::new)).problems()).as("at start the same typo stops Sluice")
        .isEqualTo(reread.policyProblems());
    write("tcp.port: nope\npolicies:\n  typo: {strategy: gcra, burst: 3, rate: fast}\n");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConfigLoader.reread(args, java.util.Map.of()))
        .as("any other problem refuses the whole reread, listing the policies' too").isInstanceOf(ConfigException.class)
        .hasMessageContaining("--tcp-port").hasMessageContaining("policy 'typo'");
  }
}
