package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.failure;
import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.ValueSize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config file, read through {@link ConfigLoader} as Main reads it. */
class YamlConfigFileTest {

  @TempDir
  Path directory;

  @Test
  void everyOptionCanBeSetInNestedForm() throws Exception {
    SluiceConfig config = load("""
        bind: 0.0.0.0
        tcp:
          port: 9300
        udp:
          port: 9301
        http:
          port: 9302
        value-size: uint32
        shards: 6
        max-frame: 2048
        max-pending-bytes: 8192
        sweep-interval-ms: 25
        auth-token: from-file
        """);

    assertThat(config.bind()).isEqualTo("0.0.0.0");
    assertThat(config.tcpPort()).isEqualTo(9300);
    assertThat(config.udpPort()).isEqualTo(9301);
    assertThat(config.httpPort()).isEqualTo(9302);
    assertThat(config.valueSize()).isEqualTo(ValueSize.UINT32);
    assertThat(config.shards()).isEqualTo(6);
    assertThat(config.maxFrame()).isEqualTo(2048);
    assertThat(config.maxPendingBytes()).isEqualTo(8192);
    assertThat(config.sweepIntervalMillis()).isEqualTo(25L);
    assertThat(config.authToken()).contains("from-file");
    assertThat(config.configFile()).contains(file());
  }

  @Test
  void dottedKeysMeanTheSameAsNestedOnes() throws Exception {
    SluiceConfig config = load("""
        tcp.port: 9400
        http:
          port: 9401
        udp.port: 9402
        """);

    assertThat(config.tcpPort()).isEqualTo(9400);
    assertThat(config.httpPort()).isEqualTo(9401);
    assertThat(config.udpPort()).isEqualTo(9402);
    assertThat(config.origin(Options.TCP_PORT)).isEqualTo("config file " + file() + ":1 (tcp.port)");
    assertThat(config.origin(Options.HTTP_PORT)).isEqualTo("config file " + file() + ":3 (http.port)");
  }

  @Test
  void quotedScalarsAreReadLikeAnyOtherText() throws Exception {
    SluiceConfig config = load("tcp.port: \"9500\"\nauth-token: '12345'\n");

    assertThat(config.tcpPort()).isEqualTo(9500);
    assertThat(config.authToken()).contains("12345");
  }

  @Test
  void scalarsKeepTheirTextInsteadOfYamlNumberForms() throws Exception {
    // YAML 1.1 would read 0x1F as 31; the option parser sees the text and rejects it.
    assertThat(failureFor("max-frame: 0x1F\n").getMessage()).contains("invalid value '0x1F'");
    assertThat(load("auth-token: 0x1F\n").authToken()).contains("0x1F");
  }

  @Test
  void anEmptyValueKeepsTheDefault() throws Exception {
    SluiceConfig config = load("shards: ~\nauth-token:\ntcp:\nudp: {}\n");

    assertThat(config.shards()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(config.authToken()).isEmpty();
    assertThat(config.tcpPort()).isEqualTo(9000);
    assertThat(config.origin(Options.SHARDS)).isEqualTo("default");
  }

  @Test
  void anEmptyOrCommentOnlyFileSetsNothing() throws Exception {
    assertThat(load("").tcpPort()).isEqualTo(9000);
    assertThat(load("# nothing here\n").tcpPort()).isEqualTo(9000);
  }

  @Test
  void anUnknownKeyIsReportedWithItsLineAndASuggestion() {
    assertThat(failureFor("bind: '::'\ntcp:\n  prot: 1\n").getMessage())
        .isEqualTo("config file " + file() + ":3: unknown key 'tcp.prot'; did you mean 'tcp.port'?");
  }

  @Test
  void aKeySpelledLikeItsFlagPointsToTheRealKey() {
    assertThat(failureFor("sweep_interval_ms: 5\nhttp-port: 1\n").problems()).containsExactly(
        "config file " + file() + ":1: unknown key 'sweep_interval_ms'; did you mean 'sweep-interval-ms'?",
        "config file " + file() + ":2: unknown key 'http-port'; did you mean 'http.port'?");
  }

  @Test
  void aFlagOnlyOptionIsNotAKey() {
    assertThat(failureFor("config: other.yaml\n").getMessage())
        .startsWith("config file " + file() + ":1: unknown key 'config'");
  }

  @Test
  void anUnknownSectionIsReported() {
    assertThat(failureFor("storage:\n  engine: memory\n").getMessage())
        .isEqualTo("config file " + file() + ":1: unknown key 'storage'");
  }

  @Test
  void anInvalidValueNamesTheOptionFileLineAndKey() {
    assertThat(failureFor("\n\nvalue-size: uint7\n").getMessage())
        .isEqualTo("--value-size: invalid value 'uint7' from config file " + file() + ":3 (value-size):"
            + " expected uint8, uint16, uint32 or uint64");
  }

  @Test
  void anUnquotedIpv6AddressIsMalformedYaml() {
    // Documented in deploy/sluice.yaml: YAML reads "::" as mapping syntax, so it must be quoted.
    assertThat(failureFor("bind: ::\n").getMessage()).contains(":1:").contains("malformed YAML");
  }

  @Test
  void aSettingGivenTwiceIsReported() {
    assertThat(failureFor("tcp:\n  port: 1\ntcp.port: 2\n").getMessage())
        .isEqualTo("config file " + file() + ":3: 'tcp.port' is set twice (first at line 2)");
  }

  @Test
  void aListOrMappingWhereAValueBelongsIsReported() {
    assertThat(failureFor("bind: [a, b]\nshards:\n  n: 1\n").problems()).containsExactly(
        "config file " + file() + ":1: 'bind' takes a single value, not a list (--bind)",
        "config file " + file() + ":2: 'shards' takes a single value, not a mapping (--shards)");
  }

  @Test
  void aValueWhereASectionBelongsIsReported() {
    assertThat(failureFor("tcp: 9000\n").getMessage())
        .isEqualTo("config file " + file() + ":1: 'tcp' is a section holding tcp.port, tcp.bind, not a value");
  }

  @Test
  void aTopLevelThatIsNotAMappingIsReported() {
    assertThat(failureFor("- bind\n- tcp.port\n").getMessage())
        .isEqualTo("config file " + file() + ":1:1: expected option keys at the top level (see deploy/sluice.yaml)");
  }

  @Test
  void malformedYamlIsReportedWithLineAndColumn() {
    assertThat(failureFor("bind: 127.0.0.1\ntcp:\n  port: 1\n port: 2\n").getMessage())
        .startsWith("config file " + file() + ":4:")
        .contains("malformed YAML");
  }

  @Test
  void severalDocumentsAreMalformed() {
    assertThat(failureFor("bind: a\n---\nbind: b\n").getMessage()).contains("malformed YAML");
  }

  @Test
  void aMissingFileNamesWhereItsPathCameFrom() {
    Path missing = directory.resolve("missing.yaml");

    assertThat(failure("--config", missing.toString()).getMessage())
        .isEqualTo("cannot read config file " + missing + " (given by command line): no such file");
    assertThat(failure(Map.of("SLUICE_CONFIG", missing.toString())).getMessage())
        .isEqualTo("cannot read config file " + missing + " (given by environment variable SLUICE_CONFIG): no such file");
  }

  @Test
  void aDirectoryIsNotAConfigFile() {
    assertThat(failure("--config", directory.toString()).getMessage())
        .isEqualTo("cannot read config file " + directory + " (given by command line): it is a directory");
  }

  @Test
  void aFileThatIsNotUtf8IsReported() throws IOException {
    Files.write(file(), new byte[] {'b', 'i', 'n', 'd', ':', ' ', (byte) 0xC3, (byte) 0x28, '\n'});

    assertThat(failure("--config", file().toString()).getMessage())
        .isEqualTo("cannot read config file " + file() + " (given by command line): it is not valid UTF-8");
  }

  @Test
  void aSecretInTheFileIsNeverEchoed() {
    String message = failureFor("auth-token: \"tab\\tinside\"\n").getMessage();

    assertThat(message).contains("--auth-token: invalid value (hidden) from config file").doesNotContain("inside");
  }

  @Test
  void problemsAcrossTheFileAreReportedTogether() {
    assertThat(failureFor("bogus: 1\ntcp.port: x\nshards: 0\n").problems()).hasSize(3);
  }

  private Path file() {
    return directory.resolve("sluice.yaml");
  }

  private SluiceConfig load(String yaml) throws Exception {
    Files.writeString(file(), yaml);
    return run("--config", file().toString());
  }

  private ConfigException failureFor(String yaml) {
    try {
      Files.writeString(file(), yaml);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return failure("--config", file().toString());
  }
}
