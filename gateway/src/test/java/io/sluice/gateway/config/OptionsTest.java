package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OptionsTest {

  @Test
  void environmentVariablesFollowTheNamingRule() {
    assertThat(Options.TCP_PORT.environmentVariable()).contains("SLUICE_TCP_PORT");
    assertThat(Options.SWEEP_INTERVAL_MILLIS.environmentVariable()).contains("SLUICE_SWEEP_INTERVAL_MS");
    assertThat(Options.CONFIG.environmentVariable()).contains("SLUICE_CONFIG");
    assertThat(Options.HELP.environmentVariable()).isEmpty();
  }

  @Test
  void everySettingButTheFileLocationHasAYamlKey() {
    for (Option<?> option : Options.ALL) {
      boolean expectsKey = option != Options.CONFIG && !Options.isAction(option);
      assertThat(option.yamlKey().isPresent()).as(option.flag()).isEqualTo(expectsKey);
    }
  }

  @Test
  void lookupsFindOptionsByNameAndKey() {
    assertThat(Options.byName("tcp-port")).contains(Options.TCP_PORT);
    assertThat(Options.byYamlKey("tcp.port")).contains(Options.TCP_PORT);
    assertThat(Options.byName("tcp.port")).isEmpty();
    assertThat(Options.isYamlSection("tcp")).isTrue();
    assertThat(Options.isYamlSection("tcp.port")).isFalse();
  }

  @Test
  void theSmallestMaxFrameFitsTheLongestRequestWithoutPayload() {
    // INSERT: type, quota (uint64), TTL unit, TTL (uint64), key length, 255-byte key.
    assertThat(Options.MIN_MAX_FRAME).isEqualTo(274);
  }

  @Test
  void theTokenNeverAppearsInToStringOrDescribe() throws Exception {
    SluiceConfig config = run(Map.of("SLUICE_AUTH_TOKEN", "hunter2"));

    assertThat(config.toString()).doesNotContain("hunter2").contains("auth-token=" + Option.MASK);
    assertThat(config.describe()).doesNotContain("hunter2").contains(Option.MASK);
    assertThat(config.authToken()).contains("hunter2");
  }

  @Test
  void describeListsEverySettingWithValueAndOrigin() throws Exception {
    SluiceConfig config = run(Map.of("SLUICE_UDP_PORT", "7000"), "--tcp-port", "7001");

    List<String> lines = config.describe().lines().toList();

    assertThat(lines).hasSize(Options.ALL.size() - Options.ACTIONS.size());
    assertThat(lines).anySatisfy(line -> assertThat(line).matches("--tcp-port += 7001 \\(command line\\)"));
    assertThat(lines).anySatisfy(line -> assertThat(line).matches("--udp-port += 7000 \\(environment variable SLUICE_UDP_PORT\\)"));
    assertThat(lines).anySatisfy(line -> assertThat(line).matches("--auth-token += \\(not set\\) \\(default\\)"));
    assertThat(lines).anySatisfy(line -> assertThat(line).matches("--value-size += uint16 \\(default\\)"));
  }

  @Test
  void toStringShowsEverySettingOnOneLine() throws Exception {
    assertThat(run().toString())
        .startsWith("SluiceConfig{bind=127.0.0.1, tcp-port=9000, udp-port=9001, rules=(not set), udp-max-stats-keys=100000, http-port=8080, allowed-origins=, allowed-hosts=, value-size=uint16, shards=")
        .contains("auth-token=(not set), ws-jwt-secret-file=(not set)")
        .contains("ws-publish-rate=(not set), internal-metrics=false, log-level=info, log-format=text, config=(not set)");
  }
}
