package io.sluice.verticles.server.settings;

import java.util.List;

/**
 * What operators see of the server itself.
 *
 * @param internalMetrics also serve the series about Sluice's own machinery (such as
 *                        {@code sluice_shard_parcel_batches}), off by default
 * @param configuration   the effective configuration, secrets already redacted, as the admin
 *                        endpoint {@code GET /api/admin/config} shows it; empty when unknown
 */
public record OperatorSettings(boolean internalMetrics, List<ConfigEntry> configuration) {

  /** One option as it is in effect: its flag, its value as shown (secrets masked) and where it came from. */
  public record ConfigEntry(String option, String yaml, String value, String origin, boolean secret) {
  }

  public OperatorSettings {
    configuration = List.copyOf(configuration);
  }

  /** The defaults: no internal series, no configuration to show. */
  public static OperatorSettings defaults() {
    return new OperatorSettings(false, List.of());
  }
}
