package io.sluice.verticles.benchmarks.floor;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The floor answers a ShouldRateLimit call over a real HTTP/2 connection as the gRPC port would: OK, one status. */
class GrpcFloorTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    await(vertx.close());
  }

  @Test
  void answersShouldRateLimitWithOneStatus() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    await(vertx.deployVerticle(new GrpcFloor(port)));
    HttpClient client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
        .setHttp2ClearTextUpgrade(false));
    byte[] request = RateLimitRequest.newBuilder().setDomain("bench").build().toByteArray();
    Buffer message = Buffer.buffer().appendByte((byte) 0).appendInt(request.length).appendBytes(request);
    // The trailers are read inside the response's own callback, once its body has ended.
    Answer answer = await(client.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(port).setHost("127.0.0.1")
            .setURI("/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit")
            .putHeader("content-type", "application/grpc").putHeader("te", "trailers"))
        .compose(call -> call.send(message))
        .compose(response -> response.body().map(body -> new Answer(response, body, response.getTrailer("grpc-status")))));

    assertThat(answer.response().statusCode()).isEqualTo(200);
    assertThat(answer.grpcStatus()).isEqualTo("0");
    RateLimitResponse response = RateLimitResponse.parseFrom(answer.body().getBytes(5, answer.body().length()));
    assertThat(response).isEqualTo(GrpcFloor.ANSWER);
    assertThat(response.getStatusesCount()).isEqualTo(1);
    await(client.close());
  }

  private record Answer(HttpClientResponse response, Buffer body, String grpcStatus) {
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
