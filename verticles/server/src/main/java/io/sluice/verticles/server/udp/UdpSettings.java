package io.sluice.verticles.server.udp;

import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.udp.stats.KeyStatistics;

/**
 * The UDP front: where it listens, the rule table that picks each key's limit, and how many keys'
 * {@code get_stats} statistics it may hold ({@code --udp-max-stats-keys}).
 */
public record UdpSettings(String bind, int port, RuleSet rules, int maxStatsKeys) {

  /** With the default statistics cap. */
  public UdpSettings(String bind, int port, RuleSet rules) {
    this(bind, port, rules, KeyStatistics.DEFAULT_MAX_KEYS);
  }
}
