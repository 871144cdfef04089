package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** /openapi.json describes every endpoint of the API. */
class OpenApiTest {

  private final CheckFixture f = new CheckFixture(Policies.none());

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void servesAnOpenApi3DocumentOfEveryEndpoint() {
    Answer answer = f.http.get("/openapi.json");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.header("Content-Type")).isEqualTo("application/json");
    JsonObject document = answer.json();
    assertThat(document.getString("openapi")).startsWith("3.");
    JsonObject paths = document.getJsonObject("paths");
    assertThat(paths.fieldNames()).containsExactlyInAnyOrder(
        "/v1/check", "/v1/check/{policy}", "/v1/peek", "/v1/limits/{policy}/{key}", "/openapi.json");
    assertThat(paths.getJsonObject("/v1/check").fieldNames()).containsExactly("post");
    assertThat(paths.getJsonObject("/v1/limits/{policy}/{key}").fieldNames()).contains("delete");
    assertThat(document.getJsonObject("components").getJsonObject("headers").fieldNames())
        .contains("RateLimit-Policy", "RateLimit", "Retry-After");
    assertThat(f.http.send(HttpMethod.POST, "/openapi.json", "{}").status()).isEqualTo(405);
  }

  @Test
  void withoutPoliciesAChecksNamesTheMissingSection() {
    Answer answer = f.http.post("/v1/check", "{\"policy\":\"any\",\"key\":\"k\"}");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.json().getString("error")).contains("unknown policy 'any'", "none is configured");
  }
}
