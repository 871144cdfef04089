package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

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

  /** Whether the domain is configured: a request's limit override applies only on a known domain. */
  public boolean hasDomain(String domain) {
    return domains.containsKey(domain);
  }

  /**
   * The limit that applies to one descriptor of a request, or null: the entries are walked down
   * the domain's tree level by level, and the limit is the one of the node the LAST entry reaches.
   * A descriptor with more entries than the tree has levels, or whose last node has no
   * {@code rate_limit}, has no limit (envoyproxy/ratelimit's README, example 4). An unknown
   * domain has no limits at all.
   *
   * <p>The limit handed out is made for this request: its statistics path is the configured one,
   * or, with {@code detailed_metric}, the request's {@code key_value} path, or, where a level has
   * {@code value_to_metric}, the configured path with that level's request value; an entry
   * matched by a {@code share_threshold} wildcard is counted, and named in statistics, by the
   * wildcard instead of its value (envoyproxy/ratelimit's config_impl semantics).
   */
  public RateLimit limitFor(String domain, List<RateLimitDescriptor.Entry> entries) {
    DescriptorLevel level = domains.get(domain);
    DescriptorNode[] path = new DescriptorNode[entries.size()];
    for (int i = 0; i < path.length; i++) {
      if (level == null) {
        return null;
      }
      RateLimitDescriptor.Entry entry = entries.get(i);
      path[i] = level.find(entry.getKey(), entry.getValue());
      if (path[i] == null) {
        return null;
      }
      level = path[i].children().isEmpty() ? null : path[i].children();
    }
    if (path.length == 0 || path[path.length - 1].limit() == null) {
      return null;
    }
    RateLimit limit = path[path.length - 1].limit();
    List<String> shared = sharedValues(path);
    if (limit.detailedMetric()) {
      return limit.forRequest(requestPath(entries, shared), true, shared);
    }
    if (anyValueToMetric(path)) {
      return limit.forRequest(valueToMetricPath(entries, path, shared), true, shared);
    }
    return shared.isEmpty() ? limit : limit.forRequest(limit.statKey(), false, shared);
  }

  /** Per entry, the wildcard it is counted by ({@code share_threshold}), or ""; empty when none is. */
  private static List<String> sharedValues(DescriptorNode[] path) {
    // Looked at per descriptor of every request: a plain loop, and the flag before the pattern.
    boolean anyShared = false;
    for (DescriptorNode node : path) {
      anyShared |= sharesWildcard(node);
    }
    if (!anyShared) {
      return List.of();
    }
    return Arrays.stream(path).map(node -> sharesWildcard(node) ? node.value() : "").toList();
  }

  private static boolean sharesWildcard(DescriptorNode node) {
    return node.shareThreshold() && node.isWildcard();
  }

  private static boolean anyValueToMetric(DescriptorNode[] path) {
    for (DescriptorNode node : path) {
      if (node.valueToMetric()) {
        return true;
      }
    }
    return false;
  }

  /** {@code key_value.key_value…} of the request (a shared entry as its wildcard). */
  private static String requestPath(List<RateLimitDescriptor.Entry> entries, List<String> shared) {
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < entries.size(); i++) {
      String value = shared.isEmpty() || shared.get(i).isEmpty() ? entries.get(i).getValue() : shared.get(i);
      path.append(i == 0 ? "" : ".").append(entries.get(i).getKey()).append('_').append(value);
    }
    return path.toString();
  }

  /**
   * The configured path, where each level with {@code value_to_metric} names the request's value
   * (a key-only node gains it, a wildcard gives way to it) unless the level shares its wildcard's
   * counter, which then names the wildcard.
   */
  private static String valueToMetricPath(List<RateLimitDescriptor.Entry> entries, DescriptorNode[] path,
                                          List<String> shared) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < path.length; i++) {
      DescriptorNode node = path[i];
      String value;
      if (!shared.isEmpty() && !shared.get(i).isEmpty()) {
        value = shared.get(i);
      } else if (node.valueToMetric() || (node.value() != null && !node.isWildcard())) {
        value = entries.get(i).getValue();
      } else {
        value = node.value();
      }
      text.append(i == 0 ? "" : ".").append(node.key());
      if (value != null && !value.isEmpty()) {
        text.append('_').append(value);
      }
    }
    return text.toString();
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
}
