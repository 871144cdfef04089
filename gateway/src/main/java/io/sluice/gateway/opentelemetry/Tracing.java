package io.sluice.gateway.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.vertx.core.VertxBuilder;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;

import java.net.URI;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * OpenTelemetry tracing of one process. On (an OTLP endpoint is set): an SDK with a batch span
 * processor exporting OTLP/HTTP, W3C trace-context propagation and {@link DecisionSampler}, handed
 * to Vert.x as its tracer, which then opens a span per HTTP and gRPC request and carries the trace
 * over the clustered event bus. Off: nothing is built and Vert.x has no tracer at all.
 */
public final class Tracing {

  private static final System.Logger LOG = System.getLogger(Tracing.class.getName());

  static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
  static final AttributeKey<String> SERVICE_VERSION = AttributeKey.stringKey("service.version");
  static final AttributeKey<String> SERVICE_INSTANCE = AttributeKey.stringKey("service.instance.id");
  static final AttributeKey<String> NODE_ID = AttributeKey.stringKey("sluice.node.id");

  /** How long a stop waits for the last spans to be sent. */
  private static final long FLUSH_SECONDS = 5;

  private static final Tracing OFF = new Tracing(null, "tracing off (no --otel-endpoint)");

  private final OpenTelemetrySdk sdk;
  private final String description;

  private Tracing(OpenTelemetrySdk sdk, String description) {
    this.sdk = sdk;
    this.description = description;
  }

  /**
   * @param endpoint the OTLP/HTTP traces URL; empty: off
   * @param nodeId   the cluster node id, for the resource; empty on a single node
   */
  public static Tracing start(Optional<URI> endpoint, String serviceName, double sampleRatio, String version,
                              Optional<String> nodeId) {
    if (endpoint.isEmpty()) {
      return OFF;
    }
    AttributesBuilder resource = Attributes.builder().put(SERVICE_NAME, serviceName).put(SERVICE_VERSION, version);
    nodeId.ifPresent(id -> resource.put(NODE_ID, id).put(SERVICE_INSTANCE, id));
    OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(endpoint.get().toString()).build();
    SdkTracerProvider tracers = SdkTracerProvider.builder()
        .setResource(Resource.getDefault().merge(Resource.create(resource.build())))
        .setSampler(Sampler.parentBased(new DecisionSampler(Sampler.traceIdRatioBased(sampleRatio))))
        .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
        .build();
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
        .setTracerProvider(tracers)
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
    return new Tracing(sdk, "tracing: OTLP/HTTP to " + endpoint.get() + " as service " + serviceName
        + ", new traces sampled at " + sampleRatio);
  }

  /** The builder with the tracer installed when on; unchanged when off. */
  public VertxBuilder install(VertxBuilder builder) {
    return sdk == null ? builder : builder.withTracer(new OpenTelemetryTracingFactory(sdk));
  }

  public boolean enabled() {
    return sdk != null;
  }

  /** One line for the start log. */
  public String description() {
    return description;
  }

  /** Sends the spans still buffered and stops the SDK; after Vert.x closed, so the last requests' spans are in. */
  public void stop() {
    if (sdk == null) {
      return;
    }
    if (!sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS).isSuccess()) {
      LOG.log(System.Logger.Level.WARNING, "tracing: the last spans were not sent (the collector refused them, was"
          + " unreachable or did not answer within " + FLUSH_SECONDS + " s)");
    }
  }
}
