package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * The answer to a check or peek: status (200, or 429 when a check is denied), the rate-limit header
 * fields, {@code Retry-After} on a 429, the legacy {@code X-RateLimit-*} fields when the policy asks
 * for them, and a JSON body
 * {@code {"allowed":…,"limit":…,"remaining":…,"reset":…,"retry_after":…}} (seconds, rounded up;
 * from the binding limit: the denying one that frees last, else the one with fewest remaining).
 * A shadow policy's answer is always allowed; its {@code Sluice-Shadow} header and the body's
 * {@code "shadow"} say what it decided.
 */
final class DecisionResponse {

  static final CharSequence RATELIMIT_POLICY = HttpHeaders.createOptimized("RateLimit-Policy");
  static final CharSequence RATELIMIT = HttpHeaders.createOptimized("RateLimit");
  static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
  /** What a shadow policy decided, {@code allowed} or {@code denied}; the request is allowed either way. */
  static final CharSequence SHADOW = HttpHeaders.createOptimized("Sluice-Shadow");
  static final CharSequence X_LIMIT = HttpHeaders.createOptimized("X-RateLimit-Limit");
  static final CharSequence X_REMAINING = HttpHeaders.createOptimized("X-RateLimit-Remaining");
  static final CharSequence X_RESET = HttpHeaders.createOptimized("X-RateLimit-Reset");
  private static final CharSequence JSON = HttpHeaders.createOptimized(Endpoint.JSON);
  private static final CharSequence SHADOW_ALLOWED = HttpHeaders.createOptimized("allowed");
  private static final CharSequence SHADOW_DENIED = HttpHeaders.createOptimized("denied");
  /** The body's constant parts, in ASCII: only its numbers are written per answer. */
  private static final byte[] BODY_ALLOWED = AsciiText.ascii("{\"allowed\":true,\"limit\":");
  private static final byte[] BODY_DENIED = AsciiText.ascii("{\"allowed\":false,\"limit\":");
  private static final byte[] BODY_REMAINING = AsciiText.ascii(",\"remaining\":");
  private static final byte[] BODY_RESET = AsciiText.ascii(",\"reset\":");
  private static final byte[] BODY_RETRY_AFTER = AsciiText.ascii(",\"retry_after\":");
  private static final byte[] BODY_NULL = AsciiText.ascii("null");
  private static final byte[] BODY_SHADOW_ALLOWED = AsciiText.ascii(",\"shadow\":\"allowed\"");
  private static final byte[] BODY_SHADOW_DENIED = AsciiText.ascii(",\"shadow\":\"denied\"");
  private static final byte[] BODY_END = AsciiText.ascii("}");
  /** Room for the usual body and RateLimit field; a longer one (a composite's, huge numbers) grows it. */
  private static final int SCRATCH_BYTES = 128;

  private DecisionResponse() {
  }

  /** The status a denied check answers unless the proxy asks for {@link #QUIET_DENIAL}. */
  static final int DENIED = 429;
  /** The status a peek always answers. */
  static final int PEEKED = 200;
  /**
   * What a denial answers when the request carries {@code Sluice-Deny-Status: 403}: nginx's
   * auth_request passes a 403 on quietly, where it logs every other status as an error.
   */
  static final int QUIET_DENIAL = 403;

  /**
   * @param deniedStatus what a denial answers: {@link #DENIED} or {@link #QUIET_DENIAL} for a check,
   *                     {@link #PEEKED} for a peek (which always answers 200)
   */
  static void send(HttpServerResponse response, RateLimitFields fields, Decision decision, long nowNs, int deniedStatus) {
    boolean enforce = deniedStatus != PEEKED;
    Result binding = decision.binding();
    // A shadow policy reports its decision (headers, Sluice-Shadow, the body's "shadow") but allows.
    boolean shadow = fields.policy().shadow();
    boolean allowed = decision.allowed() || shadow;
    long reset = RateLimitFields.secondsUntil(binding.resetNs(), nowNs);
    // NEVER (a cost beyond capacity) cannot reach here: such costs are refused as bad requests.
    long retryAfter = binding.retryAfterNs() == Result.NEVER ? -1 : RateLimitFields.ceilSeconds(binding.retryAfterNs());
    // One scratch for the RateLimit field, then the body: each is copied out before it is reused.
    AsciiText text = new AsciiText(SCRATCH_BYTES);
    response.setStatusCode(enforce && !allowed ? deniedStatus : 200)
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .putHeader(RATELIMIT_POLICY, fields.policyField())
        .putHeader(RATELIMIT, fields.limitField(decision, nowNs, text));
    if (enforce && !allowed && retryAfter >= 0) {
      response.putHeader(RETRY_AFTER, Long.toString(retryAfter));
    }
    if (shadow) {
      response.putHeader(SHADOW, decision.allowed() ? SHADOW_ALLOWED : SHADOW_DENIED);
    }
    if (fields.policy().legacyHeaders()) {
      // As GitHub and upstream's examples do: the reset as Unix seconds, rounded up.
      response.putHeader(X_LIMIT, Long.toString(binding.limit()))
          .putHeader(X_REMAINING, Long.toString(binding.remaining()))
          .putHeader(X_RESET, Long.toString(RateLimitFields.ceilSeconds(Math.max(0, binding.resetNs()))));
    }
    text.clear().append(allowed ? BODY_ALLOWED : BODY_DENIED).append(binding.limit())
        .append(BODY_REMAINING).append(binding.remaining())
        .append(BODY_RESET).append(reset)
        .append(BODY_RETRY_AFTER);
    if (retryAfter >= 0) {
      text.append(retryAfter);
    } else {
      text.append(BODY_NULL);
    }
    if (shadow) {
      text.append(decision.allowed() ? BODY_SHADOW_ALLOWED : BODY_SHADOW_DENIED);
    }
    response.end(text.append(BODY_END).toBuffer());
  }
}
