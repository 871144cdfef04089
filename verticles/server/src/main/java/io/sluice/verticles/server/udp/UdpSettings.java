package io.sluice.verticles.server.udp;

import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.udprate.stats.KeyStatistics;

/**
 * The UDP front: where it listens, the rule table that picks each key's limit, and how many keys'
 * {@code get_stats} statistics it may hold ({@code --udp-max-stats-keys}). Built with
 * {@link #defaults()} and the {@code with…} methods.
 */
public record UdpSettings(String bind, int port, RuleSet rules, int maxStatsKeys) {

  /** Loopback, on an ephemeral port; every key allowed; the default statistics cap. */
  public static UdpSettings defaults() {
    return new UdpSettings("127.0.0.1", 0, RuleSet.allowAll(), KeyStatistics.DEFAULT_MAX_KEYS);
  }

  public UdpSettings withListener(String bind, int port) {
    return new UdpSettings(bind, port, rules, maxStatsKeys);
  }

  public UdpSettings withRules(RuleSet rules) {
    return new UdpSettings(bind, port, rules, maxStatsKeys);
  }

  public UdpSettings withMaxStatsKeys(int maxStatsKeys) {
    return new UdpSettings(bind, port, rules, maxStatsKeys);
  }
}
