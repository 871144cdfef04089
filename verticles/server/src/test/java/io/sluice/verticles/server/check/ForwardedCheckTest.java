package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.Gcra;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.sluice.verticles.server.check.CheckFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * /v1/check/{policy}, as proxies call it: nginx auth_request (a GET subrequest with the original
 * headers and X-Original-URI) and Envoy ext_authz (the original method, the original path after the
 * configured prefix). The key comes from the policy's key definition.
 */
class ForwardedCheckTest {

  private static FixedWindow twoPerMinute() {
    return new FixedWindow(WindowPolicy.of(new Quota("default", 2, Duration.ofMinutes(1))));
  }

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("per-key", twoPerMinute(), KeyExtractor.of("param | header:X-Api-Key"), false),
      new Policy("per-ip-route", twoPerMinute(), KeyExtractor.of("header:X-Real-IP | client-ip", "path:1"), false),
      new Policy("global", new Gcra(new BucketPolicy(1, 1)), KeyExtractor.of("literal:all"), false)));

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void aGetWithTheKeyInTheQueryIsACheck() {
    Answer first = f.http.get("/v1/check/per-key?key=alice");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("RateLimit-Policy")).isEqualTo("\"per-key\";q=2;w=60");
    assertThat(first.header("RateLimit")).isEqualTo("\"per-key\";r=1;t=60");
    assertThat(f.http.get("/v1/check/per-key?key=alice").status()).isEqualTo(200);
    Answer denied = f.http.get("/v1/check/per-key?key=alice");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(denied.header("Retry-After")).isEqualTo("60");
    assertThat(f.state("rl:per-key:alice")).isEqualTo("23|1|default|2|" + T0);
  }

  @Test
  void theKeyCanComeFromAForwardedHeader() {
    assertThat(f.http.get("/v1/check/per-key", "X-Api-Key", "k1").status()).isEqualTo(200);
    assertThat(f.http.get("/v1/check/per-key", "x-api-key", "k1").status()).isEqualTo(200);
    assertThat(f.http.get("/v1/check/per-key", "X-Api-Key", "k1").status()).isEqualTo(429);
    assertThat(f.http.get("/v1/check/per-key?key=other", "X-Api-Key", "k1").status())
        .as("the explicit key comes first").isEqualTo(200);
    assertThat(f.http.get("/v1/check/per-key").json().getString("error")).contains("missing key");
  }

  /** nginx's quiet recipe: a denial answers 403 with the same headers; a refused check names its reason. */
  @Test
  void aProxyMayAskForDenialsAs403AndReadsWhyACheckWasRefused() {
    f.http.get("/v1/check/per-key?key=q");
    f.http.get("/v1/check/per-key?key=q");
    Answer denied = f.http.get("/v1/check/per-key?key=q", "Sluice-Deny-Status", "403");
    assertThat(denied.status()).isEqualTo(403);
    assertThat(denied.header("Retry-After")).isEqualTo("60");
    assertThat(denied.header("RateLimit")).isEqualTo("\"per-key\";r=0;t=60");
    assertThat(denied.json().getBoolean("allowed")).isFalse();
    assertThat(f.http.get("/v1/check/per-key?key=q", "Sluice-Deny-Status", "418").status()).isEqualTo(400);

    Answer noKey = f.http.get("/v1/check/per-key", "Sluice-Deny-Status", "403");
    assertThat(noKey.status()).isEqualTo(400);
    assertThat(noKey.header("Sluice-Error")).isEqualTo("missing_key");
    assertThat(f.http.get("/v1/check/nope?key=c").header("Sluice-Error")).isEqualTo("unknown_policy");
  }

  @Test
  void pathSegmentsComeFromXOriginalUri() {
    String ip = "203.0.113.9";
    assertThat(f.http.get("/v1/check/per-ip-route", "X-Real-IP", ip, "X-Original-URI", "/reports/1?x=y").status())
        .isEqualTo(200);
    assertThat(f.http.get("/v1/check/per-ip-route", "X-Real-IP", ip, "X-Original-URI", "/reports/2").status())
        .isEqualTo(200);
    assertThat(f.http.get("/v1/check/per-ip-route", "X-Real-IP", ip, "X-Original-URI", "/reports/3").status())
        .isEqualTo(429);
    assertThat(f.http.get("/v1/check/per-ip-route", "X-Real-IP", ip, "X-Original-URI", "/exports/1").status())
        .as("another route").isEqualTo(200);
    assertThat(f.state("rl:per-ip-route:" + ip + ":reports")).isEqualTo("23|1|default|2|" + T0);
  }

  @Test
  void envoyStyleTheOriginalPathFollowsThePolicyAndAnyMethodIsACheck() {
    assertThat(f.http.send(HttpMethod.POST, "/v1/check/per-ip-route/exports/9?q=1", null, "X-Real-IP", "10.0.0.1")
        .status()).isEqualTo(200);
    assertThat(f.http.send(HttpMethod.DELETE, "/v1/check/per-ip-route/exports/10", null, "X-Real-IP", "10.0.0.1")
        .status()).isEqualTo(200);
    Answer denied = f.http.send(HttpMethod.PATCH, "/v1/check/per-ip-route/exports", null, "X-Real-IP", "10.0.0.1");
    assertThat(denied.status()).isEqualTo(429);
    assertThat(f.state("rl:per-ip-route:10.0.0.1:exports")).isNotNull();
  }

  @Test
  void aPostGivesTheLimitedPathInItsBody() {
    String body = "{\"policy\":\"per-ip-route\",\"path\":\"/reports/7\"}";
    assertThat(f.http.post("/v1/check", body, "X-Real-IP", "198.51.100.1").status()).isEqualTo(200);
    assertThat(f.state("rl:per-ip-route:198.51.100.1:reports")).isEqualTo("23|1|default|1|" + T0);
  }

  @Test
  void withoutAForwardedAddressTheCallersOwnIsTheClient() {
    assertThat(f.http.get("/v1/check/per-ip-route/a").status()).isEqualTo(200);
    assertThat(f.state("rl:per-ip-route:127.0.0.1:a")).isNotNull();
  }

  @Test
  void aLiteralKeyIsOneLimitForEverybody() {
    assertThat(f.http.get("/v1/check/global?key=mine", "X-Api-Key", "a").status())
        .as("a ?key= from the original query is ignored by a policy without param").isEqualTo(200);
    assertThat(f.http.get("/v1/check/global", "X-Api-Key", "b").status()).isEqualTo(429);
    assertThat(f.state("rl:global:all")).isNotNull();
  }

  @Test
  void costAndErrorsAsForAPost() {
    assertThat(f.http.get("/v1/check/per-key?key=c&cost=2").header("RateLimit")).isEqualTo("\"per-key\";r=0;t=60");
    assertThat(f.http.get("/v1/check/per-key?key=c&cost=3").json().getString("error")).contains("can ever admit");
    assertThat(f.http.get("/v1/check/per-key?key=c&cost=x").json().getString("error")).contains("whole number");
    Answer unknown = f.http.get("/v1/check/nope?key=c");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.json().getString("error")).contains("unknown policy 'nope'");
    assertThat(f.http.get("/v1/check//x").json().getString("error")).contains("missing policy");
  }

  /**
   * The front takes check paths before its router, but leaves it those that normalising changes;
   * they answer as they did when the router took every path.
   */
  @Test
  void pathsTheRouterNormalisesAnswerAsBefore() {
    assertThat(f.http.get("/v1/check/./per-key?key=a").json().getString("error")).contains("unknown policy '.'");
    assertThat(f.http.get("/v1/check/").status()).as("the JSON check's path, with a slash").isEqualTo(405);
    assertThat(f.http.get("/v1/check/per-key/../x?key=a").status()).isEqualTo(200);
    assertThat(f.state("rl:per-key:a")).isNotNull();
  }
}
