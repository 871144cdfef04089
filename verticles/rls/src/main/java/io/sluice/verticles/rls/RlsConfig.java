package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The loaded rate limit configuration: every domain's descriptor tree, and where each came from.
 * Immutable; a reload builds a new one and swaps it in whole.
 *
 * @param domains by domain name
 * @param sources the files read, for log lines
 */
public record RlsConfig(Map<String, DescriptorLevel> domains, List<String> sources) {

  public static final RlsConfig EMPTY = new RlsConfig(Map.of(), List.of());

  public RlsConfig {
    domains = Map.copyOf(domains);
    sources = List.copyOf(sources);
  }

  /** The domains configured here that {@code next} does not configure, sorted: what a reload to it drops. */
  public List<String> domainsMissingFrom(RlsConfig next) {
    return domains.keySet().stream().filter(domain -> !next.domains().containsKey(domain)).sorted().toList();
  }

  /**
   * The limit that applies to one descriptor of a request, or null: the entries are walked down
   * the domain's tree level by level, and the limit is the one of the node the LAST entry reaches.
   * A descriptor with more entries than the tree has levels, or whose last node has no
   * {@code rate_limit}, has no limit (envoyproxy/ratelimit's README, example 4). An unknown
   * domain has no limits at all.
   */
  public RateLimit limitFor(String domain, List<RateLimitDescriptor.Entry> entries) {
    DescriptorLevel level = domains.get(domain);
    DescriptorNode node = null;
    for (RateLimitDescriptor.Entry entry : entries) {
      if (level == null) {
        return null;
      }
      node = level.find(entry.getKey(), entry.getValue());
      if (node == null) {
        return null;
      }
      level = node.children().isEmpty() ? null : node.children();
    }
    if (node == null || node.limit() == null) {
      return null;
    }
    RateLimit limit = node.limit();
    if (limit.detailedMetric()) {
      // One series per request value, which the operator asked for with detailed_metric.
      return withStatKey(limit, entries.stream().map(e -> e.getKey() + '_' + e.getValue())
          .collect(Collectors.joining(".")));
    }
    return limit;
  }

  /** Every limit of a domain's tree, depth first in file order (the dashboard lists them). */
  public List<RateLimit> limits(String domain) {
    List<RateLimit> limits = new java.util.ArrayList<>();
    collect(domains.getOrDefault(domain, DescriptorLevel.EMPTY), limits);
    return limits;
  }

  private static void collect(DescriptorLevel level, List<RateLimit> limits) {
    for (DescriptorNode node : level.nodes()) {
      if (node.limit() != null) {
        limits.add(node.limit());
      }
      collect(node.children(), limits);
    }
  }

  private static RateLimit withStatKey(RateLimit limit, String statKey) {
    return limit.withStatKey(statKey);
  }
}
