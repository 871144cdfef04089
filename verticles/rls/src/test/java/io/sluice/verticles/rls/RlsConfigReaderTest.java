package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** envoyproxy/ratelimit's config format: what loads, how it matches, and every refusal with its file, line and field. */
class RlsConfigReaderTest {

  private static RlsConfig parse(String yaml) throws RlsConfigException {
    return RlsConfigReader.parse(Map.of("rls.yaml", yaml));
  }

  private static List<String> problems(String yaml) {
    try {
      parse(yaml);
    } catch (RlsConfigException refused) {
      return refused.problems();
    }
    throw new AssertionError("the config was accepted");
  }

  private static List<RateLimitDescriptor.Entry> entries(String... keysAndValues) {
    List<RateLimitDescriptor.Entry> entries = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.add(RateLimitDescriptor.Entry.newBuilder().setKey(keysAndValues[i]).setValue(keysAndValues[i + 1]).build());
    }
    return entries;
  }

  @Test
  void theShippedExampleLoadsAndMatchesAsItsCommentsSay() throws Exception {
    RlsConfig config = RlsConfigReader.read(Path.of(System.getProperty("basedir", "."), "..", "..", "deploy", "ratelimit"));
    assertThat(config.domains()).containsOnlyKeys("edge");
    assertThat(config.limitFor("edge", entries("remote_address", "10.0.0.1")).requestsPerUnit()).isEqualTo(10);
    assertThat(config.limitFor("edge", entries("header_match", "api", "api_key", "k1")).requestsPerUnit()).isEqualTo(100);
    assertThat(config.limitFor("edge", entries("header_match", "api", "api_key", "trial")).requestsPerUnit()).isEqualTo(5);
    RateLimit reports = config.limitFor("edge", entries("path", "/reports/2026"));
    assertThat(reports.shadowMode()).isTrue();
    assertThat(reports.statKey()).isEqualTo("path_/reports*");
    assertThat(config.limitFor("edge", entries("header_match", "api"))).as("a node without rate_limit").isNull();
  }

  @Test
  void exactValueBeatsWildcardWhichBeatsKeyAlone() throws Exception {
    RlsConfig config = parse("""
        domain: d
        descriptors:
          - key: k
            rate_limit: {unit: second, requests_per_unit: 1}
          - key: k
            value: ab*
            rate_limit: {unit: second, requests_per_unit: 2}
          - key: k
            value: abc
            rate_limit: {unit: second, requests_per_unit: 3}
          - key: k_a
            rate_limit: {unit: second, requests_per_unit: 4}
        """);
    assertThat(config.limitFor("d", entries("k", "abc")).requestsPerUnit()).isEqualTo(3);
    assertThat(config.limitFor("d", entries("k", "abd")).requestsPerUnit()).isEqualTo(2);
    assertThat(config.limitFor("d", entries("k", "x")).requestsPerUnit()).isEqualTo(1);
    assertThat(config.limitFor("d", entries("k_a", "b")).requestsPerUnit()).as("not k with value a_b").isEqualTo(4);
    assertThat(config.limitFor("other", entries("k", "abc"))).isNull();
    assertThat(config.limitFor("d", entries("k", "abc", "deeper", "x"))).isNull();
  }

  @Test
  void everyProblemIsReportedWithFileLineAndField() {
    assertThat(problems("""
        domain: d
        descriptors:
          - key: user
            rate_limit:
              unit: fortnight
              request_per_unit: 10
          - value: x
          - key: user
            value: a*b
            shadow_mode: maybe
            share_threshold: true
            metadata: [1]
          - key: ldap
            rate_limit:
              unlimited: true
              unit: second
          - key: n
            rate_limit: {unit: minute, requests_per_unit: -1}
          - key: n
            rate_limit: {unit: minute, requests_per_unit: 4294967296}
        """)).containsExactly(
        "rls.yaml:6: descriptors[0].rate_limit.request_per_unit: unknown field (known here: unit, requests_per_unit, name, replaces, unlimited, algorithm, burst, window)",
        "rls.yaml:5: descriptors[0].rate_limit.unit: must be one of second, minute, hour, day, month, year, week, found 'fortnight'",
        "rls.yaml:7: descriptors[1]: key is required",
        "rls.yaml:10: descriptors[2].shadow_mode: must be true or false, found the string \"maybe\"",
        "rls.yaml:12: descriptors[2].metadata: must be a mapping, found a list",
        "rls.yaml:16: descriptors[3].rate_limit.unit: an unlimited limit has no unit",
        "rls.yaml:18: descriptors[4].rate_limit.requests_per_unit: must be a whole number from 0 to 4294967295, found the string \"-1\"",
        "rls.yaml:20: descriptors[5].rate_limit.requests_per_unit: must be a whole number from 0 to 4294967295, found the string \"4294967296\"",
        "rls.yaml:19: descriptors[5]: key 'n' without a value is already defined on this level");
  }

  @Test
  void filesThatAreNotConfigsAreRefused() {
    assertThat(problems("")).containsExactly("rls.yaml:1: the file is empty; it must define a domain and its descriptors");
    assertThat(problems("descriptors: []")).containsExactly(
        "rls.yaml:1: domain: every file needs a domain: a non-empty name, found nothing");
    assertThat(problems("domain: d\ndescriptors: [key: x")).singleElement().asString()
        .startsWith("rls.yaml:2: not valid YAML: ");
    assertThat(problems("- a\n- b")).containsExactly(
        "rls.yaml:1: a config file is a mapping with domain: and descriptors:, found a list");
  }

  @Test
  void aDomainLivesInOneFile() {
    Map<String, String> files = new java.util.LinkedHashMap<>();
    files.put("a.yaml", "domain: d\ndescriptors: []\n");
    files.put("b.yaml", "\ndomain: d\n");
    assertThatThrownBy(() -> RlsConfigReader.parse(files)).isInstanceOf(RlsConfigException.class)
        .hasMessage("b.yaml:2: domain: domain 'd' is also defined in a.yaml (a domain lives in one file, unless domains are merged: --rls-merge-domains)");
  }
}
