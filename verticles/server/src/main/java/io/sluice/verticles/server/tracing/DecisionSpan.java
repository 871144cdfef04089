package io.sluice.verticles.server.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;

/**
 * Sluice's attributes on the server span of a deciding request (a check, a ShouldRateLimit), so a
 * trace shows which limit answered and how. Taken when the request's handler starts, while
 * Vert.x's tracer has that request's span current: the answer comes later, from a shard, outside
 * it. Without tracing the span is OpenTelemetry's no-op one and every call does nothing.
 */
public final class DecisionSpan {

  public static final AttributeKey<String> POLICY = AttributeKey.stringKey("sluice.policy");
  public static final AttributeKey<String> DECISION = AttributeKey.stringKey("sluice.decision");
  public static final AttributeKey<String> RLS_DOMAIN = AttributeKey.stringKey("sluice.rls.domain");
  public static final AttributeKey<String> RLS_CODE = AttributeKey.stringKey("sluice.rls.code");

  private final Span span;

  private DecisionSpan(Span span) {
    this.span = span;
  }

  /** The span of the request being handled, renamed to what it does (Vert.x names it by the HTTP method). */
  public static DecisionSpan current(String name) {
    Span span = Span.current();
    if (span.isRecording()) {
      span.updateName(name);
    }
    return new DecisionSpan(span);
  }

  /** A check's outcome: its policy, and {@code allowed} or {@code denied}. */
  public void checked(String policy, boolean allowed) {
    if (span.isRecording()) {
      span.setAttribute(POLICY, policy);
      span.setAttribute(DECISION, allowed ? "allowed" : "denied");
    }
  }

  /** A rate limit service answer: its domain and overall code ({@code OK}, {@code OVER_LIMIT}). */
  public void rateLimited(String domain, String code) {
    if (span.isRecording()) {
      span.setAttribute(RLS_DOMAIN, domain);
      span.setAttribute(RLS_CODE, code);
    }
  }
}
