package io.sluice.gateway.admin;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static io.sluice.gateway.process.Waits.await;

/**
 * The admin actions of the dashboard's API on the gateway as the jar runs it, with an auth token:
 * the effective configuration with the token redacted (like Envoy's /config_dump), and closing a
 * client's TCP connection. Without the token, both answer 401.
 */
class AdminApiTest {

  private static final String TOKEN = "s3cret-admin-token";

  private final Vertx client = Vertx.vertx();
  private Gateway gateway;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0",
        "--internal-metrics"), Map.of("SLUICE_AUTH_TOKEN", TOKEN));
    gateway = Gateway.start(((Invocation.Run) invocation).config());
  }

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.stop();
    }
    await(client.close());
  }


  private record Answer(int status, String body) {
  }

  /**
   * Through the JDK's client, as the gateway's other tests call: Vert.x's client, driven from the test
   * thread, lost a body that came with its head now and then up to 5.0.10 (eclipse-vertx/vert.x #6038).
   */
  private Answer call(String method, String path, boolean withToken) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.server().httpPort() + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30));
    if (withToken) {
      request.header("Authorization", "Bearer " + TOKEN);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body());
  }

  @Test
  void theEffectiveConfigurationHidesTheToken() throws Exception {
    assertThat(call("GET", "/api/admin/config", false).status()).isEqualTo(401);
    Answer answer = call("GET", "/api/admin/config", true);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body()).doesNotContain(TOKEN);
    JsonObject config = new JsonObject(answer.body());
    JsonObject token = config.getJsonArray("options").stream().map(JsonObject.class::cast)
        .filter(option -> option.getString("option").equals("--auth-token")).findFirst().orElseThrow();
    assertThat(token.getBoolean("secret")).isTrue();
    assertThat(token.getString("value")).doesNotContain(TOKEN).isNotEmpty();
    assertThat(token.getString("origin")).contains("SLUICE_AUTH_TOKEN");
    JsonObject metrics = config.getJsonArray("options").stream().map(JsonObject.class::cast)
        .filter(option -> option.getString("option").equals("--internal-metrics")).findFirst().orElseThrow();
    assertThat(metrics.getString("value")).isEqualTo("true");
    assertThat(metrics.getString("yaml")).isEqualTo("metrics.internal");
    assertThat(config.getBoolean("internalMetrics")).isTrue();
  }

  @Test
  void anOperatorClosesAConnection() throws Exception {
    NetClient tcp = client.createNetClient();
    NetSocket socket = await(tcp.connect(gateway.server().tcpPort(), "127.0.0.1"));
    Promise<Void> closed = Promise.promise();
    Promise<Buffer> whoami = Promise.promise();
    Buffer received = Buffer.buffer();
    socket.handler(data -> {
      received.appendBuffer(data);
      if (received.length() >= 17) {
        whoami.tryComplete(received);
      }
    });
    socket.closeHandler(v -> closed.complete());
    socket.write(Buffer.buffer(new byte[] {0x18})); // WHOAMI: 01 and the 16-byte ID
    String id = HexFormat.of().formatHex(await(whoami.future()).getBytes(1, 17));

    assertThat(call("DELETE", "/api/connections/" + id, false).status()).isEqualTo(401);
    assertThat(call("DELETE", "/api/connections/" + "0".repeat(32), true).status()).isEqualTo(404);
    Answer answer = call("DELETE", "/api/connections/" + id, true);
    assertThat(answer.status()).as(answer.body()).isEqualTo(202);
    await(closed.future());
  }
}
