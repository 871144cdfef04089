package io.sluice.verticles.rls;

/**
 * How the rate limit service answers, beyond its config files: envoyproxy/ratelimit's settings of
 * the same names.
 *
 * @param responseHeaders  add the three headers below, of the descriptor closest to its limit
 *                         (LIMIT_RESPONSE_HEADERS_ENABLED)
 * @param limitHeader      LIMIT_LIMIT_HEADER
 * @param remainingHeader  LIMIT_REMAINING_HEADER
 * @param resetHeader      LIMIT_RESET_HEADER
 * @param nearLimitRatio   past this share of a limit, hits count as near it (NEAR_LIMIT_RATIO)
 * @param globalShadowMode an answer that would be OVER_LIMIT says OK, and is counted (SHADOW_MODE)
 * @param stopIncrementOverLimit when a descriptor of a request would go over its limit, the others
 *                         are not counted (STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT)
 * @param globalQuotaMode  every limit is in quota mode (QUOTA_MODE)
 * @param dynamicMetadata  answers carry dynamic metadata: the domain, the descriptors, the hits and
 *                         the metadata of the limits that passed (RESPONSE_DYNAMIC_METADATA)
 */
public record RlsBehaviour(boolean responseHeaders, String limitHeader, String remainingHeader, String resetHeader,
                           float nearLimitRatio, boolean globalShadowMode, boolean stopIncrementOverLimit,
                           boolean globalQuotaMode, boolean dynamicMetadata) {

  public static final String LIMIT_HEADER = "RateLimit-Limit";
  public static final String REMAINING_HEADER = "RateLimit-Remaining";
  public static final String RESET_HEADER = "RateLimit-Reset";
  public static final float NEAR_LIMIT_RATIO = 0.8f;

  /** envoyproxy/ratelimit's defaults, with the response headers on or off. */
  public static RlsBehaviour defaults(boolean responseHeaders) {
    return new RlsBehaviour(responseHeaders, LIMIT_HEADER, REMAINING_HEADER, RESET_HEADER, NEAR_LIMIT_RATIO, false, false, false, false);
  }
}
