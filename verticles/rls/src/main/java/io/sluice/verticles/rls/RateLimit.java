package io.sluice.verticles.rls;

import com.google.protobuf.Struct;

import java.util.List;

/**
 * A configured limit, with what decides how it is applied and counted: the {@code rate_limit}
 * block of a descriptor and the {@code shadow_mode}, {@code quota_mode} and
 * {@code detailed_metric} of that descriptor. {@link RlsConfig#limitFor} hands out copies made for
 * one request, whose statistics path and shared counter values come from the request.
 *
 * @param name            the {@code name} others may replace it by, or "" (none)
 * @param requestsPerUnit hits a window admits (0 refuses everything)
 * @param unit            the window; null when unlimited
 * @param unlimited       always OK, no counter
 * @param replaces        names of limits this one replaces when both apply to one request
 * @param shadowMode      counted, but never makes the answer OVER_LIMIT
 * @param quotaMode       over it makes the answer OVER_LIMIT only when every quota-mode limit of
 *                        the request is over
 * @param statKey         the descriptor's path for statistics: {@code database_users},
 *                        {@code message_type_marketing.to_number}; null for a limit counted in no
 *                        statistics
 * @param requestMadeStat the statistics path holds request values ({@code detailed_metric},
 *                        {@code value_to_metric}, an override): a client chooses it, so the number
 *                        of such paths is capped ({@link RlsStats#MAX_DETAILED_PATHS})
 * @param sharedValues    per request entry, the wildcard whose values share one counter
 *                        ({@code share_threshold}), or "" for the entry's own value; empty when no
 *                        entry shares
 * @param algorithm       how hits are counted (Sluice's {@code algorithm}, {@code burst} and
 *                        {@code window}); given null, envoyproxy/ratelimit's fixed window of the
 *                        unit; null when unlimited
 * @param metadata        its descriptor's {@code metadata}, sent in the answer's dynamic metadata
 *                        when the limit passes; empty when none
 */
public record RateLimit(String name, long requestsPerUnit, WindowUnit unit, boolean unlimited, List<String> replaces,
                        boolean shadowMode, boolean quotaMode, String statKey, boolean requestMadeStat,
                        List<String> sharedValues, Algorithm algorithm, Struct metadata) {

  public RateLimit {
    metadata = metadata == null ? Struct.getDefaultInstance() : metadata;
    replaces = List.copyOf(replaces);
    sharedValues = List.copyOf(sharedValues);
    if (algorithm == null && !unlimited && unit != null) {
      algorithm = new CountedWindow(unit.seconds(), requestsPerUnit);
    }
  }

  /**
   * A limit as a config file states it, under its configured statistics path.
   *
   * @param algorithm how it counts; null for envoyproxy/ratelimit's fixed window of the unit
   */
  public static RateLimit configured(String name, long requestsPerUnit, WindowUnit unit, boolean unlimited,
                                     List<String> replaces, boolean shadowMode, boolean quotaMode, String statKey,
                                     boolean detailedMetric, Algorithm algorithm) {
    return new RateLimit(name, requestsPerUnit, unit, unlimited, replaces, shadowMode, quotaMode, statKey, detailedMetric,
        List.of(), algorithm, null);
  }

  /** The same limit, carrying its descriptor's {@code metadata}. */
  public RateLimit withMetadata(Struct descriptorMetadata) {
    return new RateLimit(name, requestsPerUnit, unit, unlimited, replaces, shadowMode, quotaMode, statKey, requestMadeStat,
        sharedValues, algorithm, descriptorMetadata);
  }

  /** {@code detailed_metric}: statistics per request value. */
  public boolean detailedMetric() {
    return requestMadeStat;
  }

  /** For people (the dashboard): {@code unlimited}, {@code 10 per minute}, {@code 100 per 15m, sliding_window}. */
  public String describe() {
    return unlimited ? "unlimited" : algorithm.describe(requestsPerUnit, unit);
  }

  /**
   * A limit a caller sets in its request (a descriptor's {@code limit}) on a domain the config
   * knows: never in shadow or quota mode, replacing nothing, counted under the request's own path
   * ({@code key_value.key_value}, as envoyproxy/ratelimit), which is request-made.
   */
  static RateLimit override(long requestsPerUnit, WindowUnit unit, String requestPath) {
    return new RateLimit("", requestsPerUnit, unit, false, List.of(), false, false, requestPath, true, List.of(), null, null);
  }

  RateLimit forRequest(String statKey, boolean requestMade, List<String> shared) {
    return new RateLimit(name, requestsPerUnit, unit, unlimited, replaces, shadowMode, quotaMode, statKey, requestMade,
        shared, algorithm, metadata);
  }
}
