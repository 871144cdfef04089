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
    response.setStatusCode(enforce && !allowed ? deniedStatus : 200)
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .putHeader(RATELIMIT_POLICY, fields.policyField())
        .putHeader(RATELIMIT, fields.limitField(decision, nowNs));
    if (enforce && !allowed && retryAfter >= 0) {
      response.putHeader(RETRY_AFTER, Long.toString(retryAfter));
    }
    if (shadow) {
      response.putHeader(SHADOW, decision.allowed() ? "allowed" : "denied");
    }
    if (fields.policy().legacyHeaders()) {
      // As GitHub and upstream's examples do: the reset as Unix seconds, rounded up.
      response.putHeader(X_LIMIT, Long.toString(binding.limit()))
          .putHeader(X_REMAINING, Long.toString(binding.remaining()))
          .putHeader(X_RESET, Long.toString(RateLimitFields.ceilSeconds(Math.max(0, binding.resetNs()))));
    }
    String body = "{\"allowed\":" + allowed
        + ",\"limit\":" + binding.limit()
        + ",\"remaining\":" + binding.remaining()
        + ",\"reset\":" + reset
        + ",\"retry_after\":" + (retryAfter >= 0 ? Long.toString(retryAfter) : "null")
        + (shadow ? ",\"shadow\":\"" + (decision.allowed() ? "allowed" : "denied") + '"' : "") + '}';
    response.end(body);
  }
}
