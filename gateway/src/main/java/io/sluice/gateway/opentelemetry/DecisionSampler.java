package io.sluice.gateway.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

import java.util.List;

/**
 * Starts new traces only at the requests that decide: the check API ({@code /v1/check…}), Envoy's
 * {@code ShouldRateLimit} (gRPC) and its JSON twin ({@code POST /json}), at the configured ratio. The
 * rest of the HTTP port (metrics scrapes, the dashboard's polling, health probes) would otherwise
 * fill the traces with noise; such a request is still traced when it arrives in a sampled trace,
 * as the parent-based sampler around this one decides those.
 */
final class DecisionSampler implements Sampler {

  /** Where Vert.x puts the request's path, before the span starts. */
  static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");

  private static final List<String> DECIDING_PATHS = List.of(
      "/v1/check", "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit", "/json");

  private final Sampler ratio;

  DecisionSampler(Sampler ratio) {
    this.ratio = ratio;
  }

  @Override
  public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind, Attributes attributes,
                                     List<LinkData> links) {
    String path = attributes.get(URL_PATH);
    if (path == null || !decides(path)) {
      return SamplingResult.drop();
    }
    return ratio.shouldSample(parent, traceId, name, kind, attributes, links);
  }

  static boolean decides(String path) {
    for (String deciding : DECIDING_PATHS) {
      if (path.equals(deciding) || path.startsWith(deciding + "/")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String getDescription() {
    return "DecisionSampler{" + ratio.getDescription() + "}";
  }
}
