package io.sluice.gateway.config;

import io.sluice.verticles.rls.RlsBehaviour;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.Map;

import static io.sluice.gateway.config.Loading.failure;
import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * envoyproxy/ratelimit's environment variables set the same behaviour in Sluice, each weaker than
 * the option's own SLUICE_* variable; the defaults are upstream's.
 */
class RlsOptionsTest {

  @Test
  void theDefaultsAreUpstreams() throws Exception {
    RlsBehaviour behaviour = run().rlsBehaviour();
    assertThat(behaviour).isEqualTo(new RlsBehaviour(false, "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
        0.8f, false, false, false, false));
    assertThat(run().rlsMergeDomains()).isFalse();
  }

  @Test
  void theQuotaModeAndDynamicMetadataVariablesSetTheirOptions() throws Exception {
    RlsBehaviour behaviour = run(Map.of("QUOTA_MODE", "true", "RESPONSE_DYNAMIC_METADATA", "1")).rlsBehaviour();
    assertThat(behaviour.globalQuotaMode()).isTrue();
    assertThat(behaviour.dynamicMetadata()).isTrue();
    assertThat(run(Map.of("QUOTA_MODE", "true"), "--rls-quota-mode", "false").rlsBehaviour().globalQuotaMode()).isFalse();
  }

  @Test
  void eachUpstreamVariableSetsItsOption() throws Exception {
    SluiceConfig config = run(Map.of(
        "SHADOW_MODE", "true",
        "NEAR_LIMIT_RATIO", "0.5",
        "LIMIT_LIMIT_HEADER", "X-Limit",
        "LIMIT_REMAINING_HEADER", "X-Left",
        "LIMIT_RESET_HEADER", "X-Reset",
        "LIMIT_RESPONSE_HEADERS_ENABLED", "true",
        "MERGE_DOMAIN_CONFIG", "true",
        "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT", "1",
        "GRPC_PORT", "18081",
        "PORT", "18080"));
    assertThat(config.rlsBehaviour()).isEqualTo(new RlsBehaviour(true, "X-Limit", "X-Left", "X-Reset", 0.5f, true, true, false, false));
    assertThat(config.rlsMergeDomains()).isTrue();
    assertThat(config.grpcPort()).isEqualTo(18081);
    assertThat(config.httpPort()).isEqualTo(18080);
    assertThat(config.origin(RlsOptions.SHADOW_MODE))
        .isEqualTo("environment variable SHADOW_MODE (envoyproxy/ratelimit's name for --rls-shadow-mode)");
  }

  @Test
  void theHealthyWithConfigVariableSetsItsOption() throws Exception {
    assertThat(run().rlsHealthyWithConfig()).as("upstream's default").isFalse();
    SluiceConfig config = run(Map.of("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "true"));
    assertThat(config.rlsHealthyWithConfig()).isTrue();
    assertThat(config.origin(RlsOptions.HEALTHY_WITH_CONFIG)).isEqualTo("environment variable "
        + "HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED (envoyproxy/ratelimit's name for --rls-healthy-with-config)");
  }

  @Test
  void theCacheAndXdsVariablesSetTheirOptions() throws Exception {
    SluiceConfig config = run(Map.of(
        "LOCAL_CACHE_SIZE_IN_BYTES", "1048576",
        "CONFIG_TYPE", "GRPC_XDS_SOTW",
        "CONFIG_GRPC_XDS_SERVER_URL", "xds.example:18000",
        "CONFIG_GRPC_XDS_NODE_ID", "ratelimit-node"));
    assertThat(config.rlsLocalCacheBytes()).isEqualTo(1 << 20);
    assertThat(config.rlsXdsServer()).hasValueSatisfying(server -> {
      assertThat(server.getHostString()).isEqualTo("xds.example");
      assertThat(server.getPort()).isEqualTo(18000);
    });
    assertThat(config.rlsXdsNodeId()).isEqualTo("ratelimit-node");
    assertThat(config.origin(Options.RLS_XDS_SERVER)).isEqualTo(
        "environment variable CONFIG_GRPC_XDS_SERVER_URL (envoyproxy/ratelimit's name for --rls-xds-server)");
    assertThat(run(Map.of("CONFIG_TYPE", "FILE")).rlsXdsServer()).isEmpty();
  }

  @Test
  void aConfigTypeSluiceDoesNotReadStopsTheStart() {
    assertThat(failure(Map.of("CONFIG_TYPE", "GRPC_XDS_DELTA")).getMessage())
        .contains("environment variable CONFIG_TYPE is 'GRPC_XDS_DELTA'").contains("FILE").contains("GRPC_XDS_SOTW");
  }

  @Test
  void sluicesOwnVariableAndTheFlagWinOverUpstreams() throws Exception {
    Map<String, String> both = Map.of("GRPC_PORT", "18081", "SLUICE_GRPC_PORT", "28081");
    assertThat(run(both).grpcPort()).isEqualTo(28081);
    assertThat(run(both, "--grpc-port", "38081").grpcPort()).isEqualTo(38081);
  }

  @ParameterizedTest(name = "{0}={1} reads as {2}")
  @CsvSource({"1, true", "t, true", "T, true", "TRUE, true", "True, true", "0, false", "f, false", "False, false"})
  void booleansAreReadAsUpstreamReadsThem(String text, boolean expected) throws Exception {
    assertThat(run(Map.of("SHADOW_MODE", text)).rlsBehaviour().globalShadowMode()).isEqualTo(expected);
    assertThat(run(Map.of("MERGE_DOMAIN_CONFIG", text)).rlsMergeDomains()).isEqualTo(expected);
    assertThat(run(Map.of("LIMIT_RESPONSE_HEADERS_ENABLED", text)).rlsResponseHeaders()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "RUNTIME_ROOT=/data RUNTIME_SUBDIRECTORY=ratelimit                          | /data/ratelimit/config",
      "RUNTIME_ROOT=/data/ RUNTIME_SUBDIRECTORY=ratelimit RUNTIME_APPDIRECTORY=rl | /data/ratelimit/rl",
      "RUNTIME_SUBDIRECTORY=ratelimit                                             | /srv/runtime_data/current/ratelimit/config",
      "RUNTIME_ROOT=/data                                                         | /data/config",
  })
  void theRuntimeVariablesNameTheConfigDirectory(String variables, String directory) throws Exception {
    Map<String, String> environment = new java.util.HashMap<>();
    for (String pair : variables.split(" ")) {
      environment.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
    }
    assertThat(run(environment).rlsConfig()).contains(Path.of(directory));
    environment.put("SLUICE_RLS_CONFIG", "/mine");
    assertThat(run(environment).rlsConfig()).contains(Path.of("/mine"));
  }

  @Test
  void wrongValuesAreRefusedNamingTheVariable() {
    assertThat(failure(Map.of("NEAR_LIMIT_RATIO", "1.5")).getMessage()).contains("NEAR_LIMIT_RATIO")
        .contains("expected a number from 0 to 1");
    assertThat(failure(Map.of("LIMIT_LIMIT_HEADER", "Rate Limit")).getMessage()).contains("LIMIT_LIMIT_HEADER")
        .contains("expected an HTTP header name");
    assertThat(failure("--rls-header-reset", "a:b").getMessage()).contains("--rls-header-reset");
  }

  @Test
  void helpAndTheMarkdownTableNameTheAliases() {
    assertThat(OptionDocs.helpText()).contains("env SLUICE_RLS_SHADOW_MODE or SHADOW_MODE")
        .contains("env SLUICE_RLS_CONFIG or RUNTIME_ROOT/RUNTIME_SUBDIRECTORY/RUNTIME_APPDIRECTORY");
    assertThat(OptionDocs.markdownTable()).contains("`SLUICE_GRPC_PORT`, `GRPC_PORT`")
        .contains("`SLUICE_RLS_LOCAL_CACHE_BYTES`, `LOCAL_CACHE_SIZE_IN_BYTES`")
        .contains("`SLUICE_RLS_XDS_SERVER`, `CONFIG_GRPC_XDS_SERVER_URL`")
        .contains("`SLUICE_RLS_XDS_NODE_ID`, `CONFIG_GRPC_XDS_NODE_ID`");
  }
}
