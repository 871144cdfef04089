package io.sluice.gateway.opentelemetry;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static io.sluice.gateway.process.Waits.await;

/**
 * A stand-in for an OpenTelemetry Collector: an HTTP server that takes OTLP/HTTP protobuf
 * ({@code POST /v1/traces}) and keeps every span with its resource's attributes.
 */
final class OtlpReceiver implements AutoCloseable {

  /** One received span; ids in lower-case hex, an empty parent for a root span. */
  record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, Span.SpanKind kind,
                      Map<String, String> attributes, Map<String, String> resource) {
  }

  private final Vertx vertx = Vertx.vertx();
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final HttpServer server;

  OtlpReceiver() {
    server = await(vertx.createHttpServer().requestHandler(this::receive).listen(0, "127.0.0.1"));
  }

  /** Where the exporter sends: the value of {@code --otel-endpoint}. */
  String endpoint() {
    return "http://127.0.0.1:" + server.actualPort() + "/v1/traces";
  }

  List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  private void receive(HttpServerRequest request) {
    if (request.method() != HttpMethod.POST || !request.path().equals("/v1/traces")) {
      request.response().setStatusCode(404).end();
      return;
    }
    request.body().onSuccess(body -> {
      try {
        keep(ExportTraceServiceRequest.parseFrom(body.getBytes()));
        request.response().putHeader("content-type", "application/x-protobuf")
            .end(Buffer.buffer(ExportTraceServiceResponse.getDefaultInstance().toByteArray()));
      } catch (InvalidProtocolBufferException notOtlp) {
        request.response().setStatusCode(400).end(notOtlp.getMessage());
      }
    });
  }

  private void keep(ExportTraceServiceRequest export) {
    for (ResourceSpans resourceSpans : export.getResourceSpansList()) {
      Map<String, String> resource = text(resourceSpans.getResource());
      for (ScopeSpans scope : resourceSpans.getScopeSpansList()) {
        for (Span span : scope.getSpansList()) {
          spans.add(new ReceivedSpan(hex(span.getTraceId().toByteArray()), hex(span.getSpanId().toByteArray()),
              hex(span.getParentSpanId().toByteArray()), span.getName(), span.getKind(), text(span.getAttributesList()),
              resource));
        }
      }
    }
  }

  private static Map<String, String> text(Resource resource) {
    return text(resource.getAttributesList());
  }

  /** Attributes as text, whatever their type: enough to compare with what the test expects. */
  private static Map<String, String> text(List<KeyValue> attributes) {
    return attributes.stream().collect(Collectors.toMap(KeyValue::getKey, attribute -> attribute.getValue().hasStringValue()
        ? attribute.getValue().getStringValue() : attribute.getValue().toString().trim(), (first, second) -> second));
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public void close() {
    await(vertx.close());
  }
}
