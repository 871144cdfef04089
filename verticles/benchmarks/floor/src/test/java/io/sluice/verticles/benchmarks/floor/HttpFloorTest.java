package io.sluice.verticles.benchmarks.floor;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The floor answers like a check would, over a real socket: same status, fields and body, to
 * every request of a kept-alive connection.
 *
 * <p>The client is the JDK's, which reads each whole answer before handing it over. With Vert.x's
 * client chained from the test thread, the second answer's body was once read as empty, a race of
 * the test's client: the server writes each answer from its own slice of one buffer (Vert.x's
 * {@code BufferImpl.getByteBuf}), and the JDK client sees every body whole.
 */
class HttpFloorTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    await(vertx.close());
  }

  @Test
  void answersACheckAnswerToAnyRequest() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    await(vertx.deployVerticle(new HttpFloor(port)));
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI uri = URI.create("http://127.0.0.1:" + port + "/v1/check/tb?key=k1");
    for (int round = 0; round < 3; round++) {
      for (HttpRequest request : new HttpRequest[] {
          HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
          HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
              .POST(HttpRequest.BodyPublishers.ofString("{\"policy\":\"tb\",\"key\":\"k1\"}")).build()}) {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("RateLimit-Policy")).hasValue("\"tb\";q=5;w=1");
        assertThat(response.headers().firstValue("RateLimit")).hasValue("\"tb\";r=4;t=0");
        assertThat(response.body()).as(request.method() + " in round " + round).isEqualTo(HttpFloor.BODY);
      }
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
