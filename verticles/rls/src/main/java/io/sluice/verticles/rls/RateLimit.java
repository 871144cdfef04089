package io.sluice.verticles.rls;

import java.util.List;

/**
 * A configured limit, with what decides how it is applied and counted: the {@code rate_limit}
 * block of a descriptor and the {@code shadow_mode} of that descriptor.
 *
 * @param name            the {@code name} others may replace it by, or "" (none)
 * @param requestsPerUnit hits a window admits (0 refuses everything)
 * @param unit            the window; null when unlimited
 * @param unlimited       always OK, no counter
 * @param replaces        names of limits this one replaces when both apply to one request
 * @param shadowMode      counted, but never makes the answer OVER_LIMIT
 * @param statKey         the descriptor's path for statistics: {@code database_users},
 *                        {@code message_type_marketing.to_number}; null for an override the
 *                        config does not know, which is counted in no statistics
 * @param detailedMetric  statistics per request value where the path has a key without value
 * @param algorithm       how hits are counted (Sluice's {@code algorithm}, {@code burst} and
 *                        {@code window}); null when unlimited
 */
public record RateLimit(String name, long requestsPerUnit, WindowUnit unit, boolean unlimited, List<String> replaces,
                        boolean shadowMode, String statKey, boolean detailedMetric, Algorithm algorithm) {

  public RateLimit {
    replaces = List.copyOf(replaces);
    if (algorithm == null && !unlimited) {
      algorithm = new CountedWindow(unit.seconds(), requestsPerUnit);
    }
  }

  /** A limit counted as envoyproxy/ratelimit counts: fixed windows of its unit. */
  public RateLimit(String name, long requestsPerUnit, WindowUnit unit, boolean unlimited, List<String> replaces,
                   boolean shadowMode, String statKey, boolean detailedMetric) {
    this(name, requestsPerUnit, unit, unlimited, replaces, shadowMode, statKey, detailedMetric, null);
  }

  /** For people (the dashboard): {@code unlimited}, {@code 10 per minute}, {@code 100 per 15m, sliding_window}. */
  public String describe() {
    return unlimited ? "unlimited" : algorithm.describe(requestsPerUnit, unit);
  }

  /** The same limit with another statistics path. */
  RateLimit withStatKey(String newStatKey) {
    return new RateLimit(name, requestsPerUnit, unit, unlimited, replaces, shadowMode, newStatKey, detailedMetric,
        algorithm);
  }

  /**
   * A limit a caller sets in its request (a descriptor's {@code limit}), counted as the configured
   * one it overrides (its path, and whether that path is made of request values), or in no
   * statistics when {@code configured} is null.
   */
  static RateLimit override(long requestsPerUnit, WindowUnit unit, RateLimit configured) {
    return configured == null
        ? new RateLimit("", requestsPerUnit, unit, false, List.of(), false, null, false)
        : new RateLimit("", requestsPerUnit, unit, false, List.of(), false, configured.statKey(), configured.detailedMetric());
  }
}
