package io.sluice.verticles.metrics;

import io.sluice.throttr.codec.ValueSize;
import io.sluice.verticles.kit.Conversation;
import io.sluice.verticles.kit.SluiceUnderTest;
import io.sluice.verticles.kit.TcpConversation;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.sluice.verticles.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** /metrics serves Sluice's series in the Prometheus text format, with figures that follow the traffic. */
class MetricsEndpointTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, ValueSize.UINT16);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void sluiceSeriesFollowTheTraffic() {
    Conversation client = await(TcpConversation.open(vertx, sut.tcpPort()));
    await(client.send(new byte[] {0x01, 0x0a, 0x00, 0x04, 0x3c, 0x00, 0x03, 'a', 'b', 'c'}));
    assertThat(await(client.receive(1))).containsExactly(1);

    String scrape = scrape();
    assertThat(scrape).contains("# TYPE sluice_requests_total counter");
    assertThat(line(scrape, "sluice_requests_total{command=\"insert\"}")).endsWith(" 1.0");
    assertThat(line(scrape, "sluice_connections ")).endsWith(" 1.0");
    assertThat(scrape).contains("sluice_keys{shard=\"0\"}", "sluice_keys{shard=\"1\"}",
        "sluice_expired_records_reclaimed_total{shard=\"0\"}", "sluice_pushes_dropped_total",
        "sluice_channel_subscriptions", "sluice_channels");
    long keys = Arrays.stream(scrape.split("\n"))
        .filter(l -> l.startsWith("sluice_keys{"))
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
    assertThat(keys).isEqualTo(1);
  }

  private String scrape() {
    HttpClient http = vertx.createHttpClient();
    try {
      return await(http.request(HttpMethod.GET, sut.httpPort(), "127.0.0.1", "/metrics")
          .compose(request -> request.send())
          .compose(response -> {
            assertThat(response.statusCode()).isEqualTo(200);
            return response.body();
          })).toString();
    } finally {
      http.close();
    }
  }

  private static String line(String scrape, String prefix) {
    return Arrays.stream(scrape.split("\n")).filter(l -> l.startsWith(prefix)).findFirst()
        .orElseThrow(() -> new AssertionError("no series " + prefix + " in:\n" + scrape));
  }
}
