package io.sluice.verticles.benchmarks.floor;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The floor answers like a check would, over a real socket: same status, fields and body. */
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
    HttpClient client = vertx.createHttpClient();
    for (HttpMethod method : new HttpMethod[] {HttpMethod.GET, HttpMethod.POST}) {
      // The body is asked for inside the response's own callback: asked later, from this thread, it could
      // already have gone by.
      Answer answer = await(client.request(new RequestOptions().setMethod(method).setPort(port)
              .setHost("127.0.0.1").setURI("/v1/check/tb?key=k1"))
          .compose(request -> request.send())
          .compose(response -> response.body().map(body -> new Answer(response, body.toString()))));
      HttpClientResponse response = answer.response();
      String body = answer.body();
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"tb\";q=5;w=1");
      assertThat(response.getHeader("RateLimit")).isEqualTo("\"tb\";r=4;t=0");
      assertThat(body).isEqualTo(HttpFloor.BODY);
    }
    await(client.close());
  }

  private record Answer(HttpClientResponse response, String body) {
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
