package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.EventStream;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** With --auth-token, the dashboard's API reads and writes nothing without it; probes stay public. */
class DashboardAuthTest {

  private static final String TOKEN = "s3cret-token";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withHttp(HttpSettings.defaults().withAuthToken(Optional.of(TOKEN))));
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    http.close();
    sut.close();
    await(vertx.close());
  }

  @Test
  void everyApiCallButAuthNeedsTheToken() {
    assertThat(http.get("/api/auth").json()).isEqualTo(new JsonObject().put("required", true));
    for (String uri : List.of("/api/overview", "/api/keys", "/api/keys/k", "/api/connections", "/api/channels")) {
      HttpCalls.Answer refused = http.get(uri);
      assertThat(refused.status()).as(uri).isEqualTo(401);
      assertThat(refused.body()).doesNotContain(TOKEN);
    }
    assertThat(http.get("/api/overview", "Authorization", "Bearer wrong").status()).isEqualTo(401);
    assertThat(http.get("/api/overview", "Authorization", "Bearer " + TOKEN).status()).isEqualTo(200);
  }

  @Test
  void writesAreRefusedWithoutTheToken() {
    String counter = "{\"key\":\"k\",\"type\":\"counter\",\"quota\":1,\"ttl\":60}";
    assertThat(http.post("/api/keys", counter).status()).isEqualTo(401);
    assertThat(http.send(HttpMethod.DELETE, "/api/keys/k", null).status()).isEqualTo(401);
    assertThat(http.get("/api/keys/k", "Authorization", "Bearer " + TOKEN).status()).isEqualTo(404);
    assertThat(http.post("/api/keys", counter, "Authorization", "Bearer " + TOKEN).status()).isEqualTo(201);
  }

  @Test
  void theLiveStreamNeedsTheTokenToo() {
    EventStream refused = await(EventStream.open(vertx, sut.httpPort(), "/api/events"));
    assertThat(refused.status()).isEqualTo(401);
    refused.close();
    EventStream admitted = await(EventStream.open(vertx, sut.httpPort(), "/api/events", "Authorization", "Bearer " + TOKEN));
    assertThat(await(admitted.next()).name()).isEqualTo("overview");
    admitted.close();
  }

  @Test
  void probesArePublic() {
    assertThat(http.get("/health").status()).isEqualTo(200);
    assertThat(http.get("/ready").status()).isEqualTo(200);
  }
}
