package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.failure;
import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.ValueSize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigLoaderTest {

  @Test
  void withoutAnySourceEveryOptionHasItsDefault() throws Exception {
    SluiceConfig config = run();

    assertThat(config.bind()).isEqualTo("127.0.0.1");
    assertThat(config.tcpPort()).isEqualTo(9000);
    assertThat(config.udpPort()).isEqualTo(9001);
    assertThat(config.httpPort()).isEqualTo(8080);
    assertThat(config.valueSize()).isEqualTo(ValueSize.UINT16);
    assertThat(config.shards()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(config.maxFrame()).isEqualTo(8096);
    assertThat(config.maxPendingBytes()).isEqualTo(1_048_576);
    assertThat(config.sweepIntervalMillis()).isEqualTo(100L);
    assertThat(config.authToken()).isEmpty();
    assertThat(config.configFile()).isEmpty();
    assertThat(config.origin(Options.TCP_PORT)).isEqualTo("default");
  }

  @Test
  void everyOptionCanBeSetOnTheCommandLine() throws Exception {
    SluiceConfig config = run("--bind", "0.0.0.0", "--tcp-port", "9100", "--udp-port", "9101",
        "--http-port", "9102", "--value-size", "uint64", "--shards", "3", "--max-frame", "65536",
        "--max-pending-bytes", "4096", "--sweep-interval-ms", "250", "--auth-token", "s3cret");

    assertThat(config.bind()).isEqualTo("0.0.0.0");
    assertThat(config.tcpPort()).isEqualTo(9100);
    assertThat(config.udpPort()).isEqualTo(9101);
    assertThat(config.httpPort()).isEqualTo(9102);
    assertThat(config.valueSize()).isEqualTo(ValueSize.UINT64);
    assertThat(config.shards()).isEqualTo(3);
    assertThat(config.maxFrame()).isEqualTo(65536);
    assertThat(config.maxPendingBytes()).isEqualTo(4096);
    assertThat(config.sweepIntervalMillis()).isEqualTo(250L);
    assertThat(config.authToken()).contains("s3cret");
    assertThat(config.origin(Options.SHARDS)).isEqualTo("command line");
  }

  @Test
  void everyOptionCanBeSetFromTheEnvironment() throws Exception {
    SluiceConfig config = run(Map.ofEntries(
        Map.entry("SLUICE_BIND", "::1"),
        Map.entry("SLUICE_TCP_PORT", "9200"),
        Map.entry("SLUICE_UDP_PORT", "9201"),
        Map.entry("SLUICE_HTTP_PORT", "9202"),
        Map.entry("SLUICE_VALUE_SIZE", "uint8"),
        Map.entry("SLUICE_SHARDS", "5"),
        Map.entry("SLUICE_MAX_FRAME", "1024"),
        Map.entry("SLUICE_MAX_PENDING_BYTES", "2048"),
        Map.entry("SLUICE_SWEEP_INTERVAL_MS", "50"),
        Map.entry("SLUICE_AUTH_TOKEN", "from-env")));

    assertThat(config.bind()).isEqualTo("::1");
    assertThat(config.tcpPort()).isEqualTo(9200);
    assertThat(config.udpPort()).isEqualTo(9201);
    assertThat(config.httpPort()).isEqualTo(9202);
    assertThat(config.valueSize()).isEqualTo(ValueSize.UINT8);
    assertThat(config.shards()).isEqualTo(5);
    assertThat(config.maxFrame()).isEqualTo(1024);
    assertThat(config.maxPendingBytes()).isEqualTo(2048);
    assertThat(config.sweepIntervalMillis()).isEqualTo(50L);
    assertThat(config.authToken()).contains("from-env");
    assertThat(config.origin(Options.TCP_PORT)).isEqualTo("environment variable SLUICE_TCP_PORT");
  }

  @Test
  void anEmptyEnvironmentVariableCountsAsUnset() throws Exception {
    SluiceConfig config = run(Map.of("SLUICE_AUTH_TOKEN", "", "SLUICE_TCP_PORT", ""));

    assertThat(config.authToken()).isEmpty();
    assertThat(config.tcpPort()).isEqualTo(9000);
  }

  @Test
  void environmentVariablesOutsideTheTableAreIgnored() throws Exception {
    assertThat(run(Map.of("SLUICE_HOME", "/opt/sluice", "PATH", "/bin")).tcpPort()).isEqualTo(9000);
  }

  @Nested
  class FlagSpellings {

    @Test
    void valueAsTheNextArgumentOrAfterAnEqualsSignMeanTheSame() throws Exception {
      assertThat(run("--tcp-port", "1234").tcpPort()).isEqualTo(1234);
      assertThat(run("--tcp-port=1234").tcpPort()).isEqualTo(1234);
    }

    @Test
    void onlyTheFirstEqualsSignSeparatesTheValue() throws Exception {
      assertThat(run("--auth-token=a=b=c").authToken()).contains("a=b=c");
    }

    @Test
    void anEqualsSignAllowsAValueThatLooksLikeAFlag() throws Exception {
      assertThat(run("--auth-token=--odd").authToken()).contains("--odd");
    }

    @Test
    void theLastOfARepeatedFlagWins() throws Exception {
      assertThat(run("--tcp-port", "1", "--tcp-port=2").tcpPort()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "--help=true", "--help=TRUE"})
    void aSwitchStandsAloneOrTakesTrueAfterAnEqualsSign(String help) throws Exception {
      assertThat(ConfigLoader.load(List.of(help), Loading.NO_ENVIRONMENT)).isInstanceOf(Invocation.ShowHelp.class);
    }

    @Test
    void aSwitchTakesABooleanAsTheNextArgument() throws Exception {
      assertThat(ConfigLoader.load(List.of("--help", "true"), Loading.NO_ENVIRONMENT))
          .isInstanceOf(Invocation.ShowHelp.class);
      assertThat(ConfigLoader.load(List.of("--help", "false"), Loading.NO_ENVIRONMENT))
          .isInstanceOf(Invocation.Run.class);
      assertThat(ConfigLoader.load(List.of("--help=false"), Loading.NO_ENVIRONMENT))
          .isInstanceOf(Invocation.Run.class);
    }

    @Test
    void aSwitchDoesNotSwallowTheNextFlag() throws Exception {
      assertThat(ConfigLoader.load(List.of("--version", "--help"), Loading.NO_ENVIRONMENT))
          .isInstanceOf(Invocation.ShowHelp.class);
    }
  }

  @Nested
  class HelpAndVersion {

    @Test
    void helpReturnsTheGeneratedText() throws Exception {
      Invocation invocation = ConfigLoader.load(List.of("--help"), Loading.NO_ENVIRONMENT);

      assertThat(((Invocation.ShowHelp) invocation).text()).isEqualTo(OptionDocs.helpText());
    }

    @Test
    void versionIsAnsweredWithoutConfiguration() throws Exception {
      Invocation invocation = ConfigLoader.load(List.of("--version"), Loading.NO_ENVIRONMENT);

      assertThat(invocation).isInstanceOf(Invocation.ShowVersion.class);
    }

    @Test
    void helpIsShownEvenWhenTheRestOfTheConfigurationIsBroken() throws Exception {
      Invocation invocation = ConfigLoader.load(List.of("--tcp-port=nope", "--help"),
          Map.of("SLUICE_CONFIG", "/no/such/file.yaml", "SLUICE_SHARDS", "0"));

      assertThat(invocation).isInstanceOf(Invocation.ShowHelp.class);
    }

    @Test
    void anUnknownFlagIsReportedEvenWithHelp() {
      assertThat(failure("--bogus", "--help").getMessage()).contains("--bogus");
    }

    @Test
    void aSwitchWithANonBooleanValueIsAnError() {
      assertThat(failure("--help=maybe").getMessage())
          .isEqualTo("--help: invalid value 'maybe' from command line: expected true or false");
    }
  }

  @Nested
  class Precedence {

    @TempDir
    Path directory;

    @Test
    void flagBeatsEnvironmentBeatsFileBeatsDefault() throws Exception {
      Path file = write("tcp:\n  port: 1111\n");
      Map<String, String> environment = Map.of("SLUICE_CONFIG", file.toString(), "SLUICE_TCP_PORT", "2222");

      SluiceConfig all = run(environment, "--tcp-port", "3333");
      SluiceConfig withoutFlag = run(environment);
      SluiceConfig fileOnly = run(Map.of("SLUICE_CONFIG", file.toString()));
      SluiceConfig none = run();

      assertThat(all.tcpPort()).isEqualTo(3333);
      assertThat(all.origin(Options.TCP_PORT)).isEqualTo("command line");
      assertThat(withoutFlag.tcpPort()).isEqualTo(2222);
      assertThat(withoutFlag.origin(Options.TCP_PORT)).isEqualTo("environment variable SLUICE_TCP_PORT");
      assertThat(fileOnly.tcpPort()).isEqualTo(1111);
      assertThat(fileOnly.origin(Options.TCP_PORT)).isEqualTo("config file " + file + ":2 (tcp.port)");
      assertThat(none.tcpPort()).isEqualTo(9000);
    }

    @Test
    void eachOptionTakesItsOwnHighestSource() throws Exception {
      Path file = write("bind: 10.0.0.1\nshards: 2\nmax-frame: 4096\n");

      SluiceConfig config = run(Map.of("SLUICE_SHARDS", "4", "SLUICE_MAX_FRAME", "2048"),
          "--config", file.toString(), "--max-frame", "1024");

      assertThat(config.bind()).isEqualTo("10.0.0.1");
      assertThat(config.shards()).isEqualTo(4);
      assertThat(config.maxFrame()).isEqualTo(1024);
      assertThat(config.udpPort()).isEqualTo(9001);
    }

    @Test
    void theConfigFlagBeatsTheConfigVariable() throws Exception {
      Path fromFlag = write("udp.port: 1\n");
      Path fromVariable = directory.resolve("other.yaml");
      Files.writeString(fromVariable, "udp.port: 2\n");

      SluiceConfig config = run(Map.of("SLUICE_CONFIG", fromVariable.toString()), "--config=" + fromFlag);

      assertThat(config.udpPort()).isEqualTo(1);
      assertThat(config.configFile()).contains(fromFlag);
      assertThat(config.origin(Options.CONFIG)).isEqualTo("command line");
    }

    @Test
    void theConfigVariableNamesTheFileWhenThereIsNoFlag() throws Exception {
      Path file = write("udp.port: 7\n");

      SluiceConfig config = run(Map.of("SLUICE_CONFIG", file.toString()));

      assertThat(config.udpPort()).isEqualTo(7);
      assertThat(config.configFile()).contains(file);
    }

    @Test
    void aBadValueIsReportedEvenWhenAHigherSourceOverridesIt() throws Exception {
      Path file = write("tcp.port: 70000\n");

      ConfigException failure = failure(Map.of("SLUICE_TCP_PORT", "x"), "--config", file.toString(), "--tcp-port", "1");

      assertThat(failure.problems()).containsExactly(
          "--tcp-port: invalid value '70000' from config file " + file + ":1 (tcp.port): expected an integer in 0..65535",
          "--tcp-port: invalid value 'x' from environment variable SLUICE_TCP_PORT: expected an integer in 0..65535");
    }

    private Path write(String yaml) throws IOException {
      Path file = directory.resolve("sluice.yaml");
      Files.writeString(file, yaml);
      return file;
    }
  }

  @Nested
  class CommandLineErrors {

    @Test
    void anUnknownFlagIsNamedWithASuggestion() {
      assertThat(failure("--tcp-prot", "1").getMessage())
          .isEqualTo("unknown option --tcp-prot on the command line; did you mean --tcp-port? (--help lists every option)");
    }

    @Test
    void anUnknownSwitchDoesNotSwallowTheNextFlag() {
      assertThat(failure("--verbose", "--tcp-port").problems()).hasSize(2);
    }

    @Test
    void anUnknownFlagFarFromAnyOptionGetsNoSuggestion() {
      assertThat(failure("--frobnicate").getMessage())
          .isEqualTo("unknown option --frobnicate on the command line (--help lists every option)");
    }

    @Test
    void anUnknownFlagWithAnInlineValueIsNamedWithoutItsValue() {
      assertThat(failure("--nope=secret").getMessage()).contains("--nope").doesNotContain("secret");
    }

    @Test
    void aSingleDashIsExplained() {
      assertThat(failure("-p").getMessage()).contains("-p").contains("two dashes");
    }

    @Test
    void aStrayArgumentIsReported() {
      assertThat(failure("9000").getMessage())
          .isEqualTo("unexpected argument '9000' on the command line: options are given as --name value or --name=value");
    }

    @Test
    void benchOutOfPlaceIsExplained() {
      assertThat(failure("--tcp-port", "1", "bench").getMessage()).contains("'bench'").contains("first argument");
    }

    @Test
    void aFlagWithoutValueAtTheEndIsReported() {
      assertThat(failure("--tcp-port").getMessage())
          .isEqualTo("--tcp-port on the command line needs a value: --tcp-port PORT or --tcp-port=PORT");
    }

    @Test
    void aFlagFollowedByAnotherFlagIsMissingItsValue() {
      assertThat(failure("--bind", "--tcp-port", "1").getMessage()).startsWith("--bind on the command line needs a value");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
      ConfigException failure = failure("--nope", "--tcp-port");

      assertThat(failure.problems()).hasSize(2);
      assertThat(failure.getMessage()).startsWith("2 configuration problems:").contains("--nope").contains("--tcp-port");
    }
  }

  @Nested
  class Validation {

    @ParameterizedTest(name = "{0} {1} is rejected")
    @CsvSource(delimiter = ';', value = {
        "--bind; 256.0.0.1; not a valid IPv4 address",
        "--bind; 'exa mple.com'; not a valid host name",
        "--bind; ''; got an empty string",
        "--bind; '::g'; not a valid IPv6 address",
        "--tcp-port; -1; expected an integer in 0..65535",
        "--tcp-port; 65536; expected an integer in 0..65535",
        "--tcp-port; 9k; expected an integer in 0..65535",
        "--udp-port; 65536; expected an integer in 0..65535",
        "--http-port; 65536; expected an integer in 0..65535",
        "--value-size; uint12; expected uint8, uint16, uint32 or uint64",
        "--shards; 0; expected an integer in 1..2147483647",
        "--shards; 2147483648; expected an integer in 1..2147483647",
        "--max-frame; 273; expected an integer in 274..16777216",
        "--max-frame; 16777217; expected an integer in 274..16777216",
        "--max-pending-bytes; 1023; expected an integer in 1024..1073741824",
        "--max-pending-bytes; 1073741825; expected an integer in 1024..1073741824",
        "--sweep-interval-ms; 0; expected an integer in 1..3600000",
        "--sweep-interval-ms; 3600001; expected an integer in 1..3600000",
        "--config; ''; expected a file path, got an empty string",
    })
    void anInvalidValueIsReportedWithOptionSourceAndReason(String flag, String value, String reason) {
      assertThat(failure(flag + "=" + value).getMessage())
          .startsWith(flag + ": invalid value '" + value + "' from command line: ")
          .contains(reason);
    }

    @ParameterizedTest(name = "{0} {1} is accepted")
    @CsvSource(delimiter = ';', value = {
        "--tcp-port; 0", "--tcp-port; 65535", "--udp-port; 0", "--http-port; 1",
        "--shards; 1", "--max-frame; 274", "--max-frame; 16777216",
        "--max-pending-bytes; 1024", "--max-pending-bytes; 1073741824",
        "--sweep-interval-ms; 1", "--sweep-interval-ms; 3600000",
        "--value-size; UINT32", "--bind; localhost", "--bind; [::1]",
    })
    void boundaryValuesAreAccepted(String flag, String value) throws Exception {
      run(flag, value);
    }

    @Test
    void anInvalidEnvironmentValueNamesTheVariable() {
      assertThat(failure(Map.of("SLUICE_SHARDS", "zero")).getMessage())
          .isEqualTo("--shards: invalid value 'zero' from environment variable SLUICE_SHARDS: expected an integer in 1..2147483647");
    }

    @Test
    void anInvalidTokenIsReportedWithoutRevealingIt() {
      String message = failure("--auth-token", "open sesame").getMessage();

      assertThat(message).startsWith("--auth-token: invalid value (hidden) from command line: character 5")
          .doesNotContain("open").doesNotContain("sesame");
    }

    @Test
    void tcpAndHttpListenersMayNotShareAPort() {
      assertThat(failure(Map.of("SLUICE_HTTP_PORT", "9000")).getMessage())
          .isEqualTo("--tcp-port (default) and --http-port (environment variable SLUICE_HTTP_PORT) are both 9000:"
              + " the Throttr and HTTP listeners need different TCP ports");
    }

    @Test
    void tcpAndUdpMayShareAPortAndZeroIsNeverAConflict() throws Exception {
      run("--udp-port", "9000");
      run("--tcp-port", "0", "--http-port", "0");
    }
  }
}
