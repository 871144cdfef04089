package io.sluice.verticles.rls;

import com.google.protobuf.Struct;

/**
 * One entry of a domain's descriptor tree: a {@code key}, an optional {@code value} (exact, or a
 * pattern when it holds {@code *}), an optional limit and the level of descriptors below it. Built
 * by the YAML reader, and by any other source of the same model, then checked by
 * {@link RlsConfigRules}.
 *
 * @param value          null for a key-only node, which matches any value
 * @param limit          null when the node only leads to nested descriptors
 * @param valueToMetric  statistics paths name the request's value at this level instead of the
 *                       configured one (or of nothing, for a key-only node)
 * @param shareThreshold the values a wildcard matches share one counter (and one statistics path),
 *                       instead of one each
 * @param metadata       the descriptor's {@code metadata}, kept for the dynamic metadata of answers;
 *                       empty when none
 */
public record DescriptorNode(String key, String value, RateLimit limit, DescriptorLevel children,
                             boolean valueToMetric, boolean shareThreshold, Struct metadata) {

  /** A node with neither value_to_metric, share_threshold nor metadata. */
  public DescriptorNode(String key, String value, RateLimit limit, DescriptorLevel children) {
    this(key, value, limit, children, false, false, Struct.getDefaultInstance());
  }

  boolean isWildcard() {
    return WildcardPattern.isWildcard(value);
  }

  /** The node's part of a statistics path: {@code key_value}, or {@code key} without a value. */
  String statPart() {
    return value == null ? key : key + '_' + value;
  }
}
