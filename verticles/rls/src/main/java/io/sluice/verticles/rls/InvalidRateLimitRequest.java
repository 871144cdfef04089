package io.sluice.verticles.rls;

/**
 * A request the service refuses to decide: no domain, no descriptor, an unknown override unit, a
 * hits_addend above {@link RateLimitService#MAX_HITS_ADDEND}. gRPC answers it with
 * INVALID_ARGUMENT and the message, {@code /json} with a 400.
 */
public final class InvalidRateLimitRequest extends RuntimeException {

  public InvalidRateLimitRequest(String message) {
    super(message, null, false, false);
  }
}
