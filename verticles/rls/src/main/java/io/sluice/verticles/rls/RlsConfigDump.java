package io.sluice.verticles.rls;

import java.util.Locale;

/**
 * The loaded config as envoyproxy/ratelimit's debug endpoint {@code /rlconfig} prints it: one line
 * per limit, {@code <domain>.<path>: unit=<UNIT> requests_per_unit=<n>, shadow_mode: <bool>,
 * quota_mode: <bool>}, an unlimited one with {@code unit=UNKNOWN requests_per_unit=0} as upstream
 * prints it. Domains come sorted by name, and each tree in file order (upstream's order is that of
 * Go's maps, which is none).
 */
public final class RlsConfigDump {

  private RlsConfigDump() {
  }

  public static String of(RlsConfig config) {
    StringBuilder text = new StringBuilder();
    config.domains().keySet().stream().sorted().forEach(domain -> {
      for (RateLimit limit : config.limits(domain)) {
        text.append(domain).append('.').append(limit.statKey()).append(": unit=")
            .append(limit.unlimited() ? "UNKNOWN" : limit.unit().name().toUpperCase(Locale.ROOT))
            .append(" requests_per_unit=").append(limit.requestsPerUnit())
            .append(", shadow_mode: ").append(limit.shadowMode())
            .append(", quota_mode: ").append(limit.quotaMode()).append('\n');
      }
    });
    return text.toString();
  }
}
