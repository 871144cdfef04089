package io.sluice.verticles.server.http;

import io.sluice.verticles.server.kit.RawHttp;
import io.sluice.verticles.server.kit.RawHttp.Answer;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With no token (the default), a web page the operator's browser opens must not be able to drive
 * Sluice: a rebound name ({@code Host: evil.example}) is refused with 421 on every route but the
 * public probes, and a state-changing request or WebSocket upgrade from a foreign {@code Origin}
 * with 403; JSON APIs take only JSON bodies (415), which no page can send cross-site unasked.
 * Services that send no Origin, and the page's own origin under either loopback name, are served.
 */
class RequestGuardTest {

  private static final String KEY_BODY = "{\"key\":\"k1\",\"type\":\"counter\",\"quota\":5,\"ttl\":60}";
  private static final String JSON = "Content-Type: application/json";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  private interface Check {
    void run(SluiceUnderTest server) throws IOException;
  }

  /** Runs {@code check} against another server (on its own Vert.x), with these names allowed. */
  private static void withAllowedHosts(List<String> allowedHosts, Check check) throws IOException {
    Vertx other = Vertx.vertx();
    try (SluiceUnderTest server = new SluiceUnderTest(other,
        SluiceUnderTest.defaults().withHttp(HttpSettings.defaults().withAllowedHosts(allowedHosts)))) {
      check.run(server);
    } finally {
      await(other.close());
    }
  }

  private Answer get(String path, String... headers) throws IOException {
    return get(sut, path, headers);
  }

  private static Answer get(SluiceUnderTest server, String path, String... headers) throws IOException {
    return RawHttp.exchange(server.httpPort(), "GET", path, null, headers);
  }

  private String local() {
    return "Host: 127.0.0.1:" + sut.httpPort();
  }

  private void assertFreshClientServed() throws IOException {
    assertThat(get("/api/overview", local()).status()).isEqualTo(200);
  }

  @Test
  void reboundHostIsRefusedWith421() throws IOException {
    String evil = "Host: evil.example:" + sut.httpPort();
    String evilOrigin = "Origin: http://evil.example:" + sut.httpPort();
    Answer api = get("/api/overview", evil);
    assertThat(api.status()).isEqualTo(421);
    assertThat(api.json().getString("error")).contains("evil.example").contains("--allowed-hosts");
    assertThat(get("/", evil).status()).as("the dashboard page").isEqualTo(421);
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, evil, evilOrigin, JSON).status())
        .isEqualTo(421);
    assertThat(RawHttp.exchange(sut.httpPort(), "GET", "/ws", null, RawHttp.upgrade(evil, evilOrigin)).status())
        .as("the WebSocket bridge").isEqualTo(421);
    // The check API's paths, which the front takes before its router, are guarded alike.
    assertThat(get("/v1/check/p?key=k", evil).status()).as("a forwarded check").isEqualTo(421);
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/v1/check", "{\"policy\":\"p\",\"key\":\"k\"}", evil, JSON)
        .status()).as("a JSON check").isEqualTo(421);
    assertThat(get("/api/keys/k1", local()).status()).as("nothing was created").isEqualTo(404);
    assertFreshClientServed();
  }

  /** The guard remembers the last Host field's verdict; each request is still judged by its own. */
  @Test
  void eachRequestIsJudgedByItsOwnHost() throws IOException {
    String evil = "Host: evil.example";
    for (int round = 0; round < 2; round++) {
      assertThat(get("/api/overview", local()).status()).isEqualTo(200);
      assertThat(get("/api/overview", local()).status()).isEqualTo(200);
      assertThat(get("/api/overview", evil).status()).isEqualTo(421);
      assertThat(get("/api/overview", evil).status()).isEqualTo(421);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "LOCALHOST.", "127.0.0.1", "[::1]", "10.1.2.3", "[fe80::1]"})
  void loopbackNamesAndAddressesAreServed(String host) throws IOException {
    assertThat(get("/api/overview", "Host: " + host + ":" + sut.httpPort()).status()).isEqualTo(200);
    assertThat(get("/api/overview", "Host: " + host).status()).isEqualTo(200);
  }

  @Test
  void allowedHostsAreServed() throws IOException {
    withAllowedHosts(List.of("sluice.example", "Other.Example"), server -> {
      assertThat(get(server, "/api/overview", "Host: sluice.example").status()).isEqualTo(200);
      assertThat(get(server, "/api/overview", "Host: other.example:8080").status()).isEqualTo(200);
      assertThat(get(server, "/api/overview", "Host: evil.example").status()).isEqualTo(421);
    });
  }

  @Test
  void anyHostIsServedWithAStar() throws IOException {
    withAllowedHosts(List.of("*"), server ->
        assertThat(get(server, "/api/overview", "Host: evil.example").status()).isEqualTo(200));
  }

  /** Orchestrators and scrapers reach them by whatever name; they change and reveal nothing private. */
  @Test
  void probesAnswerAnyHost() throws IOException {
    assertThat(get("/health", "Host: sluice.svc.cluster.local").status()).isEqualTo(200);
    assertThat(get("/ready", "Host: sluice.svc.cluster.local").status()).isEqualTo(200);
    assertThat(get("/metrics", "Host: sluice.svc.cluster.local").status()).isEqualTo(200);
  }

  @Test
  void crossSiteSimplePostIsRefused() throws IOException {
    Answer refused = RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, local(),
        "Origin: http://evil.example", "Content-Type: text/plain");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.json().getString("error")).contains("http://evil.example").contains("--allowed-origins");
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, local(), "Origin: null", JSON)
        .status()).as("an opaque origin").isEqualTo(403);
    assertThat(RawHttp.exchange(sut.httpPort(), "DELETE", "/api/keys/k1", null, local(),
        "Origin: http://evil.example").status()).isEqualTo(403);
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/v1/check", "{\"policy\":\"p\",\"key\":\"k\"}", local(),
        "Origin: http://evil.example", JSON).status()).isEqualTo(403);
    assertThat(get("/api/keys/k1", local()).status()).as("nothing was created").isEqualTo(404);
    assertFreshClientServed();
  }

  @Test
  void jsonApisTakeOnlyJson() throws IOException {
    Answer refused = RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, local(),
        "Content-Type: text/plain");
    assertThat(refused.status()).isEqualTo(415);
    assertThat(refused.json().getString("error")).contains("application/json");
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, local()).status())
        .as("no Content-Type").isEqualTo(415);
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/v1/check", "{}", local(),
        "Content-Type: application/x-www-form-urlencoded").status()).isEqualTo(415);
    assertThat(RawHttp.exchange(sut.httpPort(), "PATCH", "/api/keys/k1", "{}", local(),
        "Content-Type: multipart/form-data; boundary=x").status()).isEqualTo(415);
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, local(),
        "Content-Type: Application/JSON; charset=utf-8").status()).isEqualTo(201);
  }

  /** curl, scripts, nginx and Envoy send no Origin; the page's own origin is served. */
  @Test
  void servicesAndTheOwnPageChangeState() throws IOException {
    assertThat(RawHttp.exchange(sut.httpPort(), "POST", "/api/keys", KEY_BODY, local(), JSON).status())
        .isEqualTo(201);
    assertThat(RawHttp.exchange(sut.httpPort(), "DELETE", "/api/keys/k1", null, local(),
        "Origin: http://127.0.0.1:" + sut.httpPort()).status()).isEqualTo(204);
  }

  /** A dashboard loaded from http://localhost:PORT talks to 127.0.0.1:PORT and back: one server. */
  @Test
  void bothLoopbackNamesAreThePagesOwnOrigin() throws IOException {
    int port = sut.httpPort();
    assertThat(RawHttp.exchange(port, "GET", "/ws", null,
        RawHttp.upgrade("Host: 127.0.0.1:" + port, "Origin: http://localhost:" + port)).status()).isEqualTo(101);
    assertThat(RawHttp.exchange(port, "GET", "/ws", null,
        RawHttp.upgrade("Host: localhost:" + port, "Origin: http://127.0.0.1:" + port)).status()).isEqualTo(101);
    assertThat(RawHttp.exchange(port, "POST", "/api/keys", KEY_BODY,
        "Host: [::1]:" + port, "Origin: http://localhost:" + port, JSON).status()).isEqualTo(201);
    assertThat(RawHttp.exchange(port, "GET", "/ws", null,
        RawHttp.upgrade("Host: 127.0.0.1:" + port, "Origin: http://localhost:" + (port == 1 ? 2 : port - 1)))
        .status()).as("another port is another server").isEqualTo(403);
  }
}
