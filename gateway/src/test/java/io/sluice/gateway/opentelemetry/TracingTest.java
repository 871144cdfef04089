package io.sluice.gateway.opentelemetry;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.proto.trace.v1.Span;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.dashboard.Traffic;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.opentelemetry.OtlpReceiver.ReceivedSpan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.sluice.gateway.process.Waits.until;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --otel-endpoint}: a started gateway sends the spans of checks and ShouldRateLimit calls,
 * in the callers' traces (W3C traceparent) and with Sluice's attributes, to an OTLP/HTTP receiver;
 * without it Vert.x has no tracer.
 */
class TracingTest {

  static final String POLICY = "policies:\n  one:\n    strategy: fixed_window\n    limit: 1\n    window: 1h\n";

  private static final Path DEPLOY = Path.of(System.getProperty("basedir", "."), "..", "deploy");

  @TempDir
  Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private final OtlpReceiver receiver = new OtlpReceiver();
  private Gateway gateway;

  @AfterEach
  void stop() {
    if (gateway != null) {
      gateway.stop();
    }
    receiver.close();
  }

  static Gateway start(List<String> flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("--tcp-port", "0", "--http-port", "0", "--udp-port", "0", "--grpc-port", "0"));
    args.addAll(flags);
    return Gateway.start(((Invocation.Run) ConfigLoader.load(args, Map.of())).config());
  }

  /** A W3C traceparent of a sampled caller's span. */
  static String traceparent(String traceId, String spanId) {
    return "00-" + traceId + "-" + spanId + "-01";
  }

  static HttpResponse<String> check(HttpClient http, int port, String key, String traceparent) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/check"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"policy\":\"one\",\"key\":\"" + key + "\"}"))
        .header("content-type", "application/json");
    if (traceparent != null) {
      request.header("traceparent", traceparent);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutAnEndpointVertxHasNoTracer() throws Exception {
    Path config = Files.writeString(dir.resolve("sluice.yaml"), POLICY);
    gateway = start(List.of("--config", config.toString()));
    assertThat(gateway.traced()).isFalse();
    assertThat(check(http, gateway.server().httpPort(), "k", traceparent("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"))
        .statusCode()).isEqualTo(200);
  }

  @Test
  void checksAndShouldRateLimitAreSpansInTheCallersTraces() throws Exception {
    Path config = Files.writeString(dir.resolve("sluice.yaml"), POLICY);
    gateway = start(List.of("--config", config.toString(), "--rls-config", DEPLOY.resolve("ratelimit").toString(),
        "--otel-endpoint", receiver.endpoint(), "--otel-service-name", "edge-limits"));
    assertThat(gateway.traced()).isTrue();
    int port = gateway.server().httpPort();

    String allowedTrace = "0af7651916cd43dd8448eb211c80319c";
    String deniedTrace = "1bf7651916cd43dd8448eb211c80319d";
    String grpcTrace = "2cf7651916cd43dd8448eb211c80319e";
    assertThat(check(http, port, "k", traceparent(allowedTrace, "b7ad6b7169203331")).statusCode()).isEqualTo(200);
    assertThat(check(http, port, "k", traceparent(deniedTrace, "c7ad6b7169203332")).statusCode()).isEqualTo(429);
    assertThat(shouldRateLimit(traceparent(grpcTrace, "d7ad6b7169203333")).getOverallCode())
        .isEqualTo(RateLimitResponse.Code.OVER_LIMIT);
    assertThat(check(http, port, "fresh", null).statusCode()).as("a check that starts its own trace").isEqualTo(200);
    assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
    gateway.stop();
    gateway = null;

    // The stop sent what was left: every span is there now (the poll only bounds a slow receiver).
    until(Duration.ofSeconds(10), "4 spans received", () -> receiver.spans().size() >= 4);
    assertThat(serverSpan(allowedTrace)).satisfies(span -> {
      assertThat(span.parentSpanId()).isEqualTo("b7ad6b7169203331");
      assertThat(span.name()).isEqualTo("POST /v1/check");
      assertThat(span.attributes()).containsEntry("sluice.policy", "one").containsEntry("sluice.decision", "allowed");
      assertThat(span.resource()).containsEntry("service.name", "edge-limits").containsKey("service.version");
    });
    assertThat(serverSpan(deniedTrace).attributes()).containsEntry("sluice.decision", "denied");
    assertThat(serverSpan(grpcTrace)).satisfies(span -> {
      assertThat(span.parentSpanId()).isEqualTo("d7ad6b7169203333");
      assertThat(span.name()).isEqualTo("envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit");
      assertThat(span.attributes()).containsEntry("sluice.rls.domain", "edge").containsEntry("sluice.rls.code", "OVER_LIMIT");
    });
    assertThat(receiver.spans()).as("the check without a caller's trace is a root span; /metrics is not traced")
        .filteredOn(span -> span.parentSpanId().isEmpty())
        .extracting(ReceivedSpan::name).containsExactly("POST /v1/check");
  }

  @Test
  void aCollectorThatIsDownCostsSpansNotChecks() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Path config = Files.writeString(dir.resolve("sluice.yaml"), POLICY);
    gateway = start(List.of("--config", config.toString(),
        "--otel-endpoint", "http://127.0.0.1:" + closedPort + "/v1/traces"));
    String traceparent = traceparent("5cf7651916cd43dd8448eb211c80319f", "e7ad6b7169203334");
    assertThat(check(http, gateway.server().httpPort(), "k", traceparent).statusCode()).isEqualTo(200);
    assertThat(check(http, gateway.server().httpPort(), "k", traceparent).statusCode()).isEqualTo(429);
    // The stop tries to send the spans, is refused, and still ends (the test's own timeout bounds it).
    gateway.stop();
    gateway = null;
  }

  private ReceivedSpan serverSpan(String traceId) {
    List<ReceivedSpan> spans = receiver.spans().stream()
        .filter(span -> span.traceId().equals(traceId) && span.kind() == Span.SpanKind.SPAN_KIND_SERVER).toList();
    assertThat(spans).as("server spans of trace %s", traceId).hasSize(1);
    return spans.get(0);
  }

  private RateLimitResponse shouldRateLimit(String traceparent) throws InterruptedException {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", gateway.server().grpcPort()).usePlaintext().build();
    try {
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER), traceparent);
      Channel traced = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
      RateLimitRequest request = RateLimitRequest.newBuilder().setDomain("edge").setHitsAddend(1000)
          .addDescriptors(RateLimitDescriptor.newBuilder()
              .addEntries(RateLimitDescriptor.Entry.newBuilder().setKey("header_match").setValue("api"))
              .addEntries(RateLimitDescriptor.Entry.newBuilder().setKey("api_key").setValue("trial")))
          .build();
      return ClientCalls.blockingUnaryCall(traced, Traffic.SHOULD_RATE_LIMIT,
          CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), request);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
