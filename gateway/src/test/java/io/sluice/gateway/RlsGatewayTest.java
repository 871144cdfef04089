package io.sluice.gateway;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.dashboard.Traffic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The options of Envoy's rate limit service as the process takes them: --rls-config with the
 * shipped deploy/ratelimit config, --grpc-port, --rls-response-headers; ShouldRateLimit over
 * grpc-java and POST /json on the started gateway; a refused config stops the start; with
 * --rls-xds-server, no gRPC port and a 503 from /ready until the xDS server gives a config.
 */
class RlsGatewayTest {

  private static final Path DEPLOY = Path.of(System.getProperty("basedir", "."), "..", "deploy");

  private Gateway gateway;

  @AfterEach
  void stop() {
    if (gateway != null) {
      gateway.stop();
    }
  }

  private static Gateway start(String... flags) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("--tcp-port", "0", "--http-port", "0", "--udp-port", "0",
        "--grpc-port", "0"));
    args.addAll(List.of(flags));
    return Gateway.start(((Invocation.Run) ConfigLoader.load(args, Map.of())).config());
  }

  @Test
  void servesTheShippedConfigOverGrpcAndJson() throws Exception {
    gateway = start("--rls-config", DEPLOY.resolve("ratelimit").toString(), "--rls-response-headers", "true");
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", gateway.server().grpcPort()).usePlaintext().build();
    RateLimitRequest trial = RateLimitRequest.newBuilder().setDomain("edge")
        .addDescriptors(RateLimitDescriptor.newBuilder()
            .addEntries(RateLimitDescriptor.Entry.newBuilder().setKey("header_match").setValue("api"))
            .addEntries(RateLimitDescriptor.Entry.newBuilder().setKey("api_key").setValue("trial")))
        .build();
    String json = "{\"domain\":\"edge\",\"descriptors\":[{\"entries\":["
        + "{\"key\":\"header_match\",\"value\":\"api\"},{\"key\":\"api_key\",\"value\":\"trial\"}]}]}";
    try {
      // The real clock's minute may turn between two calls (the first gRPC call of a JVM is slow):
      // a new minute starts a new count, so the pair is tried again, at most three times.
      HttpResponse<String> sixth = null;
      for (int attempt = 0; attempt < 3 && (sixth == null || sixth.statusCode() != 429); attempt++) {
        RateLimitResponse fifth = Traffic.shouldRateLimit(channel, trial.toBuilder().setHitsAddend(5).build());
        assertThat(fifth.getStatuses(0).getCurrentLimit().getRequestsPerUnit()).as("trial keys have 5 a minute").isEqualTo(5);
        assertThat(fifth.getResponseHeadersToAddList()).extracting(h -> h.getKey())
            .containsExactly("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
        sixth = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.server().httpPort() + "/json"))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
            HttpResponse.BodyHandlers.ofString());
      }
      assertThat(sixth.statusCode()).isEqualTo(429);
      assertThat(sixth.body()).startsWith("{\"overallCode\":\"OVER_LIMIT\"");
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void aRefusedConfigStopsTheStartNamingFileLineAndField() throws Exception {
    Path file = Files.createTempFile("rls", ".yaml");
    try {
      Files.writeString(file, "domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: minute, requests_per_unit: lots}\n");
      assertThatThrownBy(() -> start("--rls-config", file.toString()))
          .hasMessageContaining(file + ":4: descriptors[0].rate_limit.requests_per_unit: must be a whole number");
    } finally {
      Files.delete(file);
    }
  }

  @Test
  void withAnXdsServerTheGrpcPortWaitsForAConfigAndReadySaysSo() throws Exception {
    int closed;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closed = free.getLocalPort();
    }
    gateway = start("--rls-xds-server", "127.0.0.1:" + closed, "--rls-xds-node-id", "envoy-ratelimit");
    assertThat(gateway.server().grpcPort()).as("no config yet, no gRPC listener").isEqualTo(-1);
    HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + gateway.server().httpPort() + "/ready")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("no rate limit config from the xDS server 127.0.0.1:" + closed + " yet");
  }
}
