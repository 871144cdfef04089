package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * envoyproxy/ratelimit's config expectations ({@code test/config/*.yaml} with
 * {@code config_test.go}), one fixture per upstream file in {@code upstream-config/}, written in our
 * own names: what upstream loads loads, what it refuses is refused with a located reason, a
 * request's entries find the limit upstream finds, under the statistics path upstream counts it.
 */
class UpstreamConfigCasesTest {

  static Path fixture(String name) {
    try {
      return Path.of(UpstreamConfigCasesTest.class.getResource("/upstream-config/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static RlsConfig load(String... names) throws Exception {
    Map<String, String> texts = new LinkedHashMap<>();
    for (String name : names) {
      texts.put(name, Files.readString(fixture(name)));
    }
    return RlsConfigReader.parse(texts, names.length > 1);
  }

  /** {@code "key=value"} pairs, a pair without {@code =} being a key with an empty value. */
  static List<RateLimitDescriptor.Entry> entries(String pairs) {
    List<RateLimitDescriptor.Entry> entries = new ArrayList<>();
    for (String pair : pairs.split(" ")) {
      int at = pair.indexOf('=');
      entries.add(RateLimitDescriptor.Entry.newBuilder().setKey(at < 0 ? pair : pair.substring(0, at))
          .setValue(at < 0 ? "" : pair.substring(at + 1)).build());
    }
    return entries;
  }

  @ParameterizedTest(name = "{0} is refused: {1}")
  @CsvSource(delimiter = '|', value = {
      "bad_unit.yaml            | bad_unit.yaml:5: descriptors[0].rate_limit.unit: must be one of second, minute, hour, day, month, year, week, found 'fortnight'",
      "bad_yaml.yaml            | bad_yaml.yaml:2: not valid YAML: ",
      "duplicate_key.yaml       | duplicate_key.yaml:5: descriptors[1]: key 'tenant' with value 'acme' is already defined on this level",
      "empty_domain.yaml        | empty_domain.yaml:1: domain: every file needs a domain: a non-empty name, found nothing",
      "empty_key.yaml           | empty_key.yaml:3: descriptors[0]: key is required",
      "misspelled_key.yaml      | misspelled_key.yaml:4: descriptors[0].ratelimit: unknown field",
      "misspelled_key2.yaml     | misspelled_key2.yaml:4: descriptors[0].rate_limit.requestsperunit: unknown field",
      "non_map_list.yaml        | non_map_list.yaml:3: descriptors[0]: a descriptor is a mapping with key:, found the string \"x\"",
      "non_string_key.yaml      | non_string_key.yaml:7: descriptors[0].rate_limit.1.5: unknown field",
      "replaces_empty.yaml      | replaces_empty.yaml:7: descriptors[0].rate_limit.replaces[0].name: a replaces entry needs a non-empty name",
      "replaces_self.yaml       | replaces_self.yaml:7: descriptors[0].rate_limit.replaces[0].name: a limit cannot replace itself ('mine' is its own name)",
      "unlimited_with_unit.yaml | unlimited_with_unit.yaml:4: descriptors[0].rate_limit.unit: an unlimited limit has no unit",
      "share_threshold_without_wildcard.yaml | share_threshold_without_wildcard.yaml:5: descriptors[0].share_threshold: share_threshold applies to a wildcard value (one holding *), found 'acme'",
  })
  void refused(String file, String problem) {
    assertThatThrownBy(() -> load(file)).isInstanceOfSatisfying(RlsConfigException.class,
        refused -> assertThat(refused.problems()).anySatisfy(found -> assertThat(found).startsWith(problem)));
  }

  @ParameterizedTest(name = "{0} loads")
  @CsvSource({"basic.yaml", "wildcard.yaml", "shadow_mode.yaml", "metadata.yaml", "share_threshold.yaml",
      "value_to_metric.yaml", "unlimited_with_requests.yaml", "duplicate_domain.yaml"})
  void loads(String file) throws Exception {
    assertThat(load(file).domains()).containsOnlyKeys("shop");
  }

  /**
   * Upstream's TestBasicConfig, TestWildcardConfig, TestShadowModeConfig, TestDetailedMetric,
   * TestValueToMetric_*, TestShareThreshold and TestWildcardStatsBehavior: the limit (requests,
   * unit, or "-" for none) and the statistics path of a request's entries.
   */
  @ParameterizedTest(name = "{0}: {1} -> {2} {3}")
  @CsvSource(delimiter = '|', value = {
      "basic.yaml | tenant=other                      | -   | -",
      "basic.yaml | tenant=acme                       | -   | -",
      "basic.yaml | client=partner sub=x              | -   | -",
      "basic.yaml | region=eu zone=east               | -   | -",
      "basic.yaml | tenant=acme user=bob              | 4   | tenant_acme.user",
      "basic.yaml | tenant=acme user=admin            | 40  | tenant_acme.user_admin",
      "basic.yaml | client=someone                    | 12  | client",
      "basic.yaml | client=partner                    | 36  | client_partner",
      "basic.yaml | client=trusted                    | -   | -",
      "basic.yaml | ip=10.0.0.1                       | 2   | ip",
      "basic.yaml | token=t1                          | 3   | token",
      "basic.yaml | region=eu                         | 15  | region_eu",
      "basic.yaml | region=eu zone=west               | 25  | region_eu.zone_west",
      "basic.yaml | session=s1                        | 70  | session_s1",
      "basic.yaml | session=s2                        | 70  | session_s2",
      "wildcard.yaml | path=img                       | 20  | path_img*",
      "wildcard.yaml | path=img/a.png                 | 20  | path_img*",
      "wildcard.yaml | path=im                        | -   | -",
      "wildcard.yaml | exact=img                      | 21  | exact_img",
      "wildcard.yaml | exact=img2                     | -   | -",
      "wildcard.yaml | any=whatever                   | 22  | any",
      "wildcard.yaml | middle=good                    | 23  | middle_go*d",
      "wildcard.yaml | middle=gd                      | -   | -",
      "wildcard.yaml | middle=god                     | 23  | middle_go*d",
      "wildcard.yaml | middle=goodx                   | -   | -",
      "wildcard.yaml | several=abc                    | 24  | several_a*b*c",
      "wildcard.yaml | several=a-b-c                  | 24  | several_a*b*c",
      "wildcard.yaml | several=ac                     | -   | -",
      "wildcard.yaml | several=acb                    | -   | -",
      "wildcard.yaml | outer=o1 path=doc7             | 25  | outer_o1.path_doc*",
      "wildcard.yaml | outer=o1 path=img              | -   | -",
      "value_to_metric.yaml | route=draw method=GET subject=123 | 60 | route_draw.method_GET.subject",
      "value_to_metric.yaml | level1=A level2=foo        | 1   | level1_A.level2",
      "value_to_metric.yaml | top=X mid=Y leaf=Z         | 1   | top.mid_Y.leaf",
      "value_to_metric.yaml | plain=X leaf=Y             | 1   | plain.leaf",
      "value_to_metric.yaml | detailed=X leaf=Y          | 1   | detailed_X.leaf_Y",
      "value_to_metric.yaml | configured=api verb=GET subject=u1 | 5 | configured_api.verb_GET.subject",
      "value_to_metric.yaml | reader=alice action=readfile resource=docs | 5 | reader_alice.action_readfile.resource",
      "value_to_metric.yaml | route method=GET subject=1 | 60  | route.method_GET.subject",
      "share_threshold.yaml | object=photos/a.jpg       | 100 | object_photos/*",
      "share_threshold.yaml | parent=p object=deep/x    | 200 | parent_p.object_deep/*",
      "share_threshold.yaml | object=top/1 object=deep/2 | 300 | object_top/*.object_deep/*",
      "share_threshold.yaml | route=v1/users verb=GET   | 60  | route_v1/*.verb",
      "share_threshold.yaml | service=svc/a endpoint=e1 | 80  | service_svc/*.endpoint_e1",
      "share_threshold.yaml | dir=dir/a file=file/b kind=k | 120 | dir_dir/*.file_file/*.kind",
      "share_threshold.yaml | item=special             | 50  | item_special",
      "share_threshold.yaml | item=spectacle           | 100 | item_spec*",
      "share_threshold.yaml | middle=/v2beta           | 100 | middle_/v*beta",
      "share_threshold.yaml | several=a1b2c            | 51  | several_a*b*c",
  })
  void limitAndStatisticsPath(String file, String pairs, String requests, String statKey) throws Exception {
    RateLimit limit = load(file).limitFor("shop", entries(pairs));
    if (requests.equals("-")) {
      assertThat(limit).isNull();
    } else {
      assertThat(limit.requestsPerUnit()).isEqualTo(Long.parseLong(requests));
      assertThat(limit.statKey()).isEqualTo(statKey);
    }
  }

  /** TestShareThreshold: the values a shared wildcard matches are counted by the wildcard; others by their value. */
  @ParameterizedTest(name = "{0}: {1} counts as {2}")
  @CsvSource(delimiter = '|', value = {
      "object=photos/a.jpg           | photos/*",
      "object=top/1 object=deep/2    | top/*,deep/*",
      "dir=dir/a file=file/b kind=k  | dir/*,,",
      "item=special                  | ''",
      "several=a1b2c                 | a*b*c",
  })
  void sharedCounters(String pairs, String shared) throws Exception {
    RateLimit limit = load("share_threshold.yaml").limitFor("shop", entries(pairs));
    assertThat(String.join(",", limit.sharedValues())).isEqualTo(shared);
  }

  @Test
  void unlimitedIgnoresItsRequestsPerUnit() throws Exception {
    RateLimit limit = load("unlimited_with_requests.yaml").limitFor("shop", entries("tenant=x"));
    assertThat(limit.unlimited()).isTrue();
  }

  @Test
  void shadowModeIsPerLimit() throws Exception {
    RlsConfig config = load("shadow_mode.yaml");
    assertThat(config.limitFor("shop", entries("tenant=acme user=bob")).shadowMode()).isFalse();
    assertThat(config.limitFor("shop", entries("tenant=acme user=admin")).shadowMode()).isTrue();
    assertThat(config.limitFor("shop", entries("client=x")).shadowMode()).isTrue();
    assertThat(config.limitFor("shop", entries("client=partner")).shadowMode()).isFalse();
  }

  @Test
  void metadataIsKeptAsAStruct() throws Exception {
    DescriptorNode client = load("metadata.yaml").domains().get("shop").nodes().get(1);
    assertThat(client.metadata().getFieldsOrThrow("billing").getStructValue().getFieldsOrThrow("plan").getStringValue())
        .isEqualTo("gold");
  }

  /** TestDomainMerge, TestDuplicateDomain and TestDuplicateKeyDomainMerge. */
  @Test
  void domainsOfSeveralFilesMergeOnlyWhenAsked() throws Exception {
    RlsConfig merged = load("merge_a.yaml", "merge_b.yaml");
    assertThat(merged.limitFor("shop", entries("tenant=acme")).requestsPerUnit()).isEqualTo(10);
    assertThat(merged.limitFor("shop", entries("client=partner")).requestsPerUnit()).isEqualTo(20);
    Map<String, String> twice = new LinkedHashMap<>();
    twice.put("merge_a.yaml", Files.readString(fixture("merge_a.yaml")));
    twice.put("duplicate_domain.yaml", Files.readString(fixture("duplicate_domain.yaml")));
    assertThatThrownBy(() -> RlsConfigReader.parse(twice)).hasMessageContaining(
        "duplicate_domain.yaml:1: domain: domain 'shop' is also defined in merge_a.yaml");
    Map<String, String> clash = new LinkedHashMap<>();
    clash.put("a.yaml", Files.readString(fixture("merge_a.yaml")));
    clash.put("b.yaml", Files.readString(fixture("merge_a.yaml")));
    assertThatThrownBy(() -> RlsConfigReader.parse(clash, true)).hasMessage(
        "b.yaml:3: descriptors: descriptors[0]: key 'tenant' with value 'acme' is already defined on this level"
            + " in a file before (domains are merged)");
  }
}
