package io.sluice.gateway;

import io.sluice.gateway.config.ConfigException;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.FileTrouble;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.gateway.process.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** --check-config, -h/-V and the start-up messages an operator reads when something is wrong. */
class ConfigCheckTest {

  private static final Path DEPLOY = Path.of(System.getProperty("basedir", "."), "..", "deploy");

  @TempDir
  Path directory;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int check(String... args) throws ConfigException {
    Invocation invocation = ConfigLoader.load(List.of(args), Map.of());
    assertThat(invocation).isInstanceOf(Invocation.CheckConfig.class);
    SluiceConfig config = ((Invocation.CheckConfig) invocation).config();
    return ConfigCheck.run(config, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String printed() {
    return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aGoodConfigurationPrintsWhatWouldRun() throws Exception {
    int status = check("--check-config", "--config", DEPLOY.resolve("examples/sluice.yaml").toString(),
        "--rules", DEPLOY.resolve("rules/musicbrainz.yaml").toString(), "--bind", "0.0.0.0");

    assertThat(status).as(printed()).isZero();
    assertThat(printed())
        .contains("Listeners: Throttr tcp://0.0.0.0:9000, UDP udp://0.0.0.0:9001, HTTP http://0.0.0.0:8080")
        .containsPattern("--udp-port += 9001 \\(default\\)")
        .contains("Check API policies: ")
        .containsPattern("UDP rules: .*musicbrainz.yaml: \\d+ stats-only hooks, \\d+ rewrites, \\d+ rules and a default")
        .contains("WARNING: listening on 0.0.0.0, beyond loopback, without --auth-token")
        .endsWith("sluice: configuration OK\n");
  }

  @Test
  void theRateLimitConfigIsCheckedAsAtStart() throws Exception {
    assertThat(check("--check-config", "--rls-config", DEPLOY.resolve("ratelimit").toString())).as(printed()).isZero();
    assertThat(printed()).containsPattern("Rate limit config: .*ratelimit: domains \\[edge\\]");
  }

  @Test
  void aRefusedRateLimitConfigFailsTheCheckWithFileLineAndField() throws Exception {
    Path rls = Files.writeString(directory.resolve("rls.yaml"), String.join("\n",
        "domain: d",
        "descriptors:",
        "  - key: k",
        "    rate_limit: {unit: fortnight, requests_per_unit: 1}",
        ""));
    assertThat(check("--check-config", "--rls-config", rls.toString())).isEqualTo(ConfigCheck.INVALID);
    assertThat(printed()).contains("sluice: rate limit config (--rls-config) refused: " + rls
            + ":4: descriptors[0].rate_limit.unit: must be one of")
        .contains("configuration check failed").doesNotContain("configuration OK");
  }

  @Test
  void aMissingRateLimitConfigFailsTheCheck() throws Exception {
    Path nowhere = directory.resolve("nowhere");
    assertThat(check("--check-config", "--rls-config", nowhere.toString())).isEqualTo(ConfigCheck.INVALID);
    assertThat(printed()).contains(nowhere + ": no such file or directory").doesNotContain("configuration OK");
  }

  @Test
  void aDomainInTwoFilesPassesOnlyWhenDomainsAreMerged() throws Exception {
    Files.writeString(directory.resolve("a.yaml"), "domain: d\ndescriptors: [{key: a, rate_limit: {unit: second, requests_per_unit: 1}}]\n");
    Files.writeString(directory.resolve("b.yaml"), "domain: d\ndescriptors: [{key: b, rate_limit: {unit: second, requests_per_unit: 1}}]\n");
    assertThat(check("--check-config", "--rls-config", directory.toString())).isEqualTo(ConfigCheck.INVALID);
    assertThat(printed()).contains("domain 'd' is also defined in");
    out.reset();
    err.reset();
    assertThat(check("--check-config", "--rls-config", directory.toString(), "--rls-merge-domains", "true"))
        .as(printed()).isZero();
  }

  @Test
  void aRateLimitConfigWithSluicesAlgorithmFieldsIsRefusedOnlyWhenMalformed() throws Exception {
    Path good = Files.writeString(directory.resolve("good.yaml"), String.join("\n",
        "domain: edge",
        "descriptors:",
        "  - key: remote_address",
        "    rate_limit: {unit: minute, requests_per_unit: 100, algorithm: sliding_window, window: 15m}",
        "  - key: api_key",
        "    rate_limit: {unit: second, requests_per_unit: 5, algorithm: token_bucket, burst: 20}",
        ""));
    assertThat(check("--check-config", "--rls-config", good.toString())).as(printed()).isZero();
    assertThat(printed()).contains("Rate limit config: " + good + ": domains [edge]").endsWith("sluice: configuration OK\n");

    out.reset();
    err.reset();
    Path bad = Files.writeString(directory.resolve("bad.yaml"), String.join("\n",
        "domain: edge",
        "descriptors:",
        "  - key: remote_address",
        "    rate_limit: {unit: minute, requests_per_unit: 100, algorithm: rolling_window}",
        ""));
    assertThat(check("--check-config", "--rls-config", bad.toString())).isEqualTo(ConfigCheck.INVALID);
    assertThat(printed()).contains("sluice: rate limit config (--rls-config) refused: " + bad
        + ":4: descriptors[0].rate_limit.algorithm: must be one of fixed_window, sliding_window, token_bucket,"
        + " leaky_bucket, gcra, found 'rolling_window'").contains("configuration check failed");
  }

  @Test
  void aClusterBeyondLoopbackWithoutCredentialsIsWarnedOf() throws Exception {
    String warning = "WARNING: cluster ports on 10.0.0.5, beyond loopback, without credentials";
    assertThat(check("--check-config", "--cluster", "--cluster-host", "10.0.0.5")).as(printed()).isZero();
    assertThat(printed()).contains(warning + ": anyone who can reach them and knows the cluster's name is a member");
    out.reset();
    Path secret = Files.writeString(directory.resolve("cluster.secret"), "x".repeat(44));
    assertThat(check("--check-config", "--cluster", "--cluster-host", "10.0.0.5", "--cluster-secret-file",
        secret.toString())).as(printed()).isZero();
    assertThat(check("--check-config", "--cluster")).as(printed()).isZero();
    assertThat(printed()).as("with credentials, or on loopback").doesNotContain("cluster ports on");
  }

  @Test
  void aRegularExpressionErrorNamesTheFileAndLine() throws Exception {
    Path rules = Files.writeString(directory.resolve("rules.yaml"), String.join("\n",
        "rules:",
        "  - pattern: '^ws/'",
        "    limit: 10",
        "    period: 5",
        "  - pattern: '^ws/(unclosed'",
        "    limit: 10",
        "    period: 5",
        ""));

    assertThat(check("--check-config", "--rules", rules.toString())).isEqualTo(ConfigCheck.INVALID);
    assertThat(printed()).contains(rules + ":5: rules[1].pattern: invalid regular expression ^ws/(unclosed: Unclosed group")
        .contains("configuration check failed").doesNotContain("configuration OK");
  }

  @Test
  void aMissingRulesFileSaysSo() throws Exception {
    assertThat(check("--check-config", "--rules", directory.resolve("nowhere.yaml").toString())).isEqualTo(ConfigCheck.INVALID);
    assertThat(printed()).contains("cannot read rules file " + directory.resolve("nowhere.yaml") + " (--rules): no such file");
  }

  @Test
  void unreadableFilesSayPermissionDenied() {
    // Tests run as root here, which reads any file: the wording is checked on the exception itself.
    assertThat(FileTrouble.reason(new AccessDeniedException("/etc/sluice/rules.yaml"))).isEqualTo("permission denied");
  }

  @Test
  void shortFlagsAreHelpAndVersion() throws Exception {
    assertThat(ConfigLoader.load(List.of("-h"), Map.of())).isInstanceOf(Invocation.ShowHelp.class);
    assertThat(ConfigLoader.load(List.of("-V"), Map.of())).isInstanceOf(Invocation.ShowVersion.class);
    assertThat(((Invocation.ShowHelp) ConfigLoader.load(List.of("-h"), Map.of())).text()).contains("-h, --help").contains("-V, --version");
  }

  /** The real process: exit 0 for a good configuration, 2 for a bad file, with the problem on stderr. */
  @Test
  void exitsZeroOrTwo() throws Exception {
    ChildProcess.Finished good = ChildProcess.run(ChildProcess.gatewayCommand("--check-config"), Map.of(), directory);
    assertThat(good.status()).as(good.output()).isZero();
    assertThat(good.output()).contains("sluice: configuration OK");

    Path config = Files.writeString(directory.resolve("sluice.yaml"), "tcp:\n  port: [9000\n");
    ChildProcess.Finished bad = ChildProcess.run(ChildProcess.gatewayCommand("--check-config", "--config", config.toString()),
        Map.of(), directory);
    assertThat(bad.status()).as(bad.output()).isEqualTo(2);
    assertThat(bad.output()).contains(config.toString()).contains("malformed YAML").doesNotContain("configuration OK");
  }

  @Test
  void aPortInUseNamesTheListenerAndPort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      ChildProcess.Finished run = ChildProcess.run(ChildProcess.gatewayCommand("--tcp-port", "0", "--http-port",
          Integer.toString(port), "--udp-port", "0"), Map.of(), directory);
      assertThat(run.status()).as(run.output()).isEqualTo(1);
      assertThat(run.output()).contains("could not start: the HTTP listener could not start on 127.0.0.1:" + port)
          .contains("Address already in use");
    }
  }
}
