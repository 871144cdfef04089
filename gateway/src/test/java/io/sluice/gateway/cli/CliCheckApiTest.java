package io.sluice.gateway.cli;

import io.sluice.gateway.cli.CliServer.Run;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * check, reset and policies against a real server with a policy, an Envoy rate limit domain and an
 * auth token, over its HTTP port: output, --json, exit status, and where the token comes from.
 */
class CliCheckApiTest {

  private static final String TOKEN = "cli-test-token";
  private static final Map<String, String> WITH_TOKEN = Map.of(CliSettings.TOKEN_VARIABLE, TOKEN);

  @TempDir
  static Path folder;

  private static CliServer server;

  @BeforeAll
  static void startServer() throws Exception {
    Path config = Files.writeString(folder.resolve("sluice.yaml"), """
        policies:
          two-per-minute:
            strategy: fixed_window
            limit: 2
            window: 1m
        """);
    Path rls = Files.writeString(folder.resolve("ratelimit.yaml"), """
        domain: edge
        descriptors:
          - key: remote_address
            rate_limit:
              unit: second
              requests_per_unit: 10
        """);
    server = new CliServer("--config", config.toString(), "--rls-config", rls.toString(), "--auth-token", TOKEN);
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  /** A run with the token in SLUICE_AUTH_TOKEN, as the server reads it too. */
  private static Run cli(String... args) {
    return server.cli(WITH_TOKEN, new ByteArrayInputStream(new byte[0]), args);
  }

  @Test
  void checkConsumesTheLimitUntilDeniedAndResetStartsAfresh() {
    assertThat(cli("check", "two-per-minute", "alice")).isEqualTo(new Run(0, "allowed: 1 of 2 left, resets in 60 s\n", ""));
    assertThat(cli("check", "two-per-minute", "alice")).isEqualTo(new Run(0, "allowed: 0 of 2 left, resets in 60 s\n", ""));
    assertThat(cli("check", "two-per-minute", "alice"))
        .isEqualTo(new Run(1, "denied: 0 of 2 left, resets in 60 s, retry after 60 s\n", ""));
    JsonObject denied = new JsonObject(cli("--json", "check", "two-per-minute", "alice").out());
    assertThat(denied.getBoolean("allowed")).isFalse();
    assertThat(denied.getBoolean("ok")).isFalse();
    assertThat(denied.getString("policy")).isEqualTo("two-per-minute");
    assertThat(denied.getLong("retry_after")).isEqualTo(60);

    assertThat(cli("reset", "two-per-minute", "alice"))
        .isEqualTo(new Run(0, "OK: the state of alice under two-per-minute is removed\n", ""));
    assertThat(cli("reset", "two-per-minute", "alice"))
        .isEqualTo(new Run(1, "nothing to reset: two-per-minute holds no state for alice\n", ""));
    assertThat(cli("check", "two-per-minute", "alice", "2")).isEqualTo(new Run(0, "allowed: 0 of 2 left, resets in 60 s\n", ""));
  }

  @Test
  void keysTravelExactlyWhateverTheyHoldInThePath() {
    String key = "team a/user 42%";
    assertThat(cli("check", "two-per-minute", key).status()).isZero();
    assertThat(new JsonObject(cli("--json", "reset", "two-per-minute", key).out()))
        .isEqualTo(new JsonObject().put("policy", "two-per-minute").put("key", key).put("removed", true).put("ok", true));
  }

  @Test
  void policiesListsTheCheckApisPoliciesAndTheEnvoyDomains() {
    cli("check", "two-per-minute", "listed");
    Run policies = cli("policies");
    assertThat(policies.status()).isZero();
    assertThat(policies.out())
        .startsWith("check API policies:\n  two-per-minute  fixed_window, key param: default 2 per 60 s (allowed ")
        .contains("Envoy rate limit domains:\n  edge\n    remote_address: 10 per second (0 hits, 0 over)\n")
        .endsWith("(1 policy, 1 domain)\n");
    JsonObject json = new JsonObject(cli("--json", "policies").out());
    assertThat(json.getJsonArray("policies").getJsonObject(0).getString("name")).isEqualTo("two-per-minute");
    assertThat(json.getJsonArray("domains").getJsonObject(0).getString("domain")).isEqualTo("edge");
  }

  @Test
  void theTokenComesFromTokenOrSluiceAuthToken() {
    Run without = server.cli(Map.of(), new ByteArrayInputStream(new byte[0]), "check", "two-per-minute", "bob");
    assertThat(without.status()).isEqualTo(2);
    assertThat(without.err()).startsWith("sluice cli: check failed: HTTP 401: ");
    assertThat(server.cli(Map.of(), new ByteArrayInputStream(new byte[0]), "--token", TOKEN, "policies").status()).isZero();
    assertThat(cli("--token", "wrong-token", "policies").err()).as("--token wins over the variable")
        .startsWith("sluice cli: policies failed: HTTP 401: ");
  }

  @Test
  void mistakesAreNamed() {
    assertThat(cli("check", "no-such-policy", "alice").err()).startsWith("sluice cli: check failed: HTTP 400: ")
        .contains("no-such-policy");
    assertThat(cli("check", "two-per-minute").err()).isEqualTo("sluice cli: check: usage: check POLICY KEY [COST]\n");
    assertThat(cli("check", "two-per-minute", "alice", "-1").err())
        .isEqualTo("sluice cli: check: COST '-1': expected a whole number, 0 or more\n");
    Run unreachable = CliServer.run(List.of("--http", "http://127.0.0.1:1", "policies"), Map.of(), new ByteArrayInputStream(new byte[0]));
    assertThat(unreachable.status()).isEqualTo(2);
    assertThat(unreachable.err()).startsWith("sluice cli: policies failed: cannot reach http://127.0.0.1:1: ");
    assertThat(cli("--http", server.httpUrl() + "/behind/a/proxy", "policies").err()).as("the URL's path prefixes every path")
        .startsWith("sluice cli: policies failed: HTTP 404: ");
    Run noThrottr = CliServer.run(List.of("--port", "1", "--http", server.httpUrl(), "policies"), WITH_TOKEN,
        new ByteArrayInputStream(new byte[0]));
    assertThat(noThrottr.status()).as("the HTTP commands need no Throttr port").isZero();
  }
}
