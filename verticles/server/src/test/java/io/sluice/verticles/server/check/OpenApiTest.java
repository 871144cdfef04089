package io.sluice.verticles.server.check;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.List;
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
    assertThat(paths.fieldNames()).contains(
        "/v1/check", "/v1/check/{policy}", "/v1/peek", "/v1/limits/{policy}/{key}", "/openapi.json",
        "/api/overview", "/api/keys", "/api/limits", "/api/history", "/api/admin/config", "/health", "/ready", "/metrics");
    assertThat(paths.getJsonObject("/v1/check").fieldNames()).containsExactly("post");
    assertThat(paths.getJsonObject("/v1/limits/{policy}/{key}").fieldNames()).contains("delete");
    assertThat(document.getJsonObject("components").getJsonObject("headers").fieldNames())
        .contains("RateLimit-Policy", "RateLimit", "Retry-After");
    assertThat(f.http.send(HttpMethod.POST, "/openapi.json", "{}").status()).isEqualTo(405);
  }

  /**
   * A real OpenAPI parser reads the served document without a message: it is valid OpenAPI 3, every
   * reference resolves, and it names its servers and license.
   */
  @Test
  void aRealValidatorAcceptsTheDocument() {
    String served = f.http.get("/openapi.json").body();
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult result = new OpenAPIV3Parser().readContents(served, null, options);
    assertThat(result.getMessages()).as("validator messages").isEmpty();
    OpenAPI api = result.getOpenAPI();
    assertThat(api.getServers()).isNotEmpty();
    assertThat(api.getInfo().getLicense().getName()).isNotBlank();
    assertThat(api.getPaths()).containsKeys("/api/keys/{key}", "/api/connections/{id}", "/api/udp-peers",
        "/api/channels", "/api/events", "/api/auth");
    assertThat(api.getPaths().get("/health").getGet().getSecurity()).as("probes need no token").isEmpty();
  }

  /** Every route the dashboard's API serves is in the document, so it cannot fall behind. */
  @Test
  void everyDashboardRouteIsDescribed() {
    JsonObject paths = f.http.get("/openapi.json").json().getJsonObject("paths");
    for (String route : List.of("auth", "overview", "events", "keys", "keys/{key}", "connections", "connections/{id}",
        "udp-peers", "callers", "channels", "channels/{name}", "limits", "history", "admin/config")) {
      assertThat(paths.containsKey("/api/" + route)).as("/api/" + route).isTrue();
    }
  }

  @Test
  void withoutPoliciesAChecksNamesTheMissingSection() {
    Answer answer = f.http.post("/v1/check", "{\"policy\":\"any\",\"key\":\"k\"}");
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.json().getString("error")).contains("unknown policy 'any'", "none is configured");
  }
}
