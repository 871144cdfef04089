package io.sluice.gateway.config;

import io.sluice.verticles.rls.RlsBehaviour;

import java.util.regex.Pattern;

/**
 * The rows of the option table ({@link Options#ALL}) that set how Envoy's rate limit service
 * answers, each also read from envoyproxy/ratelimit's own environment variable, so that a
 * deployment written for it behaves the same with Sluice.
 */
public final class RlsOptions {

  /** An HTTP header name: RFC 9110's token characters. */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  public static final Option<Boolean> SHADOW_MODE = Option.valued("rls-shadow-mode", "BOOL", ValueType.bool())
      .yaml("rls.shadow-mode").environment().alias(EnvironmentAlias.goBoolean("SHADOW_MODE"))
      .defaultValue(false)
      .describedAs("Answer OK where the rate limit service would answer OVER_LIMIT, counting each such call in sluice_rls_global_shadow_mode_total; the statuses still say which descriptors were over (envoyproxy/ratelimit's global SHADOW_MODE).");

  public static final Option<Double> NEAR_LIMIT_RATIO = Option.valued("rls-near-limit-ratio", "RATIO", TelemetryValueTypes.ratio())
      .yaml("rls.near-limit-ratio").environment().alias("NEAR_LIMIT_RATIO")
      .defaultValue(0.8) // RlsBehaviour.NEAR_LIMIT_RATIO, written as the text a user writes
      .describedAs("Past this share of a limit, hits count in sluice_rls_near_limit_total.");

  public static final Option<String> LIMIT_HEADER = header("limit", "LIMIT_LIMIT_HEADER", RlsBehaviour.LIMIT_HEADER,
      "The name of the response header that holds the limit (requests per unit), with --rls-response-headers.");

  public static final Option<String> REMAINING_HEADER = header("remaining", "LIMIT_REMAINING_HEADER",
      RlsBehaviour.REMAINING_HEADER, "The name of the response header that holds the hits left, with --rls-response-headers.");

  public static final Option<String> RESET_HEADER = header("reset", "LIMIT_RESET_HEADER", RlsBehaviour.RESET_HEADER,
      "The name of the response header that holds the seconds to the window's end, with --rls-response-headers.");

  public static final Option<Boolean> MERGE_DOMAINS = Option.valued("rls-merge-domains", "BOOL", ValueType.bool())
      .yaml("rls.merge-domains").environment().alias(EnvironmentAlias.goBoolean("MERGE_DOMAIN_CONFIG"))
      .defaultValue(false)
      .describedAs("Let several --rls-config files (or xDS resources) define one domain, their descriptors making one tree (envoyproxy/ratelimit's MERGE_DOMAIN_CONFIG); otherwise a domain in two files is refused.");

  public static final Option<Boolean> STOP_INCREMENT_OVER_LIMIT = Option.valued("rls-stop-increment-over-limit", "BOOL", ValueType.bool())
      .yaml("rls.stop-increment-over-limit").environment()
      .alias(EnvironmentAlias.goBoolean("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT"))
      .defaultValue(false)
      .describedAs("When a descriptor of a request would go over its limit, count only the descriptors that would (envoyproxy/ratelimit's STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT): a refused request does not use up its other limits. Costs a second trip to the counters.");

  public static final Option<Boolean> QUOTA_MODE = Option.valued("rls-quota-mode", "BOOL", ValueType.bool())
      .yaml("rls.quota-mode").environment().alias(EnvironmentAlias.goBoolean("QUOTA_MODE"))
      .defaultValue(false)
      .describedAs("Treat every limit as quota_mode: true (envoyproxy/ratelimit's global QUOTA_MODE): a request is OVER_LIMIT only when all its counted limits are over.");

  public static final Option<Boolean> RESPONSE_DYNAMIC_METADATA = Option.valued("rls-response-dynamic-metadata", "BOOL", ValueType.bool())
      .yaml("rls.response-dynamic-metadata").environment().alias(EnvironmentAlias.goBoolean("RESPONSE_DYNAMIC_METADATA"))
      .defaultValue(false)
      .describedAs("Send each answer's dynamic_metadata as envoyproxy/ratelimit's RESPONSE_DYNAMIC_METADATA does: the domain, the descriptors, the hits and the metadata of the limits that passed.");

  public static final Option<Boolean> HEALTHY_WITH_CONFIG = Option.valued("rls-healthy-with-config", "BOOL", ValueType.bool())
      .yaml("rls.healthy-with-config").environment().alias(EnvironmentAlias.goBoolean("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED"))
      .defaultValue(false)
      .describedAs("Be ready (/ready, /healthcheck, the gRPC health service's \"ratelimit\") only while the rate limit config in force has a domain: not before the first one, and not after a reload that leaves none (envoyproxy/ratelimit's HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED).");

  private RlsOptions() {
  }

  private static Option<String> header(String which, String upstreamVariable, String upstreamDefault, String description) {
    return Option.valued("rls-header-" + which, "NAME", headerName())
        .yaml("rls.header-" + which).environment().alias(upstreamVariable)
        .defaultValue(upstreamDefault)
        .describedAs(description);
  }

  private static ValueType<String> headerName() {
    return new ValueType<>("an HTTP header name", text -> {
      if (!TOKEN.matcher(text).matches()) {
        throw new IllegalArgumentException("expected an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)");
      }
      return text;
    }, name -> name);
  }
}
