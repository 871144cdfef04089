package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** With an auth token configured, every /v1 endpoint wants Authorization: Bearer; the OpenAPI document stays public. */
class TokenTest {

  private static final String TOKEN = "s3cret-token";
  private static final String CHECK = "{\"policy\":\"fw\",\"key\":\"k\"}";

  private final CheckFixture f = new CheckFixture(Policies.of(
      new Policy("fw", new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofSeconds(10)))))),
      Optional.of(TOKEN));

  @AfterEach
  void close() {
    f.close();
  }

  private static void assertUnauthorized(Answer answer) {
    assertThat(answer.status()).isEqualTo(401);
    assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"sluice\"");
    assertThat(answer.json().getString("error")).contains("Authorization: Bearer");
  }

  @Test
  void withoutTheTokenEveryEndpointIs401AndNothingIsConsumed() {
    assertUnauthorized(f.http.post("/v1/check", CHECK));
    assertUnauthorized(f.http.post("/v1/check", CHECK, "Authorization", "Bearer wrong"));
    assertUnauthorized(f.http.post("/v1/check", CHECK, "Authorization", TOKEN));
    assertUnauthorized(f.http.get("/v1/check/fw?key=k"));
    assertUnauthorized(f.http.post("/v1/peek", CHECK));
    assertUnauthorized(f.http.send(HttpMethod.DELETE, "/v1/limits/fw/k", null));
    assertThat(f.state("rl:fw:k")).isNull();
  }

  @Test
  void withTheTokenRequestsAreServed() {
    Answer check = f.http.post("/v1/check", CHECK, "Authorization", "Bearer " + TOKEN);
    assertThat(check.status()).isEqualTo(200);
    assertThat(check.header("RateLimit")).isEqualTo("\"fw\";r=4;t=10");
    assertThat(f.http.get("/v1/check/fw?key=k", "Authorization", "bearer " + TOKEN).status()).isEqualTo(200);
  }

  @Test
  void theOpenApiDocumentIsPublic() {
    assertThat(f.http.get("/openapi.json").status()).isEqualTo(200);
  }
}
