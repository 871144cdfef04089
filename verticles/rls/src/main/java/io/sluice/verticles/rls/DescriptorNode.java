package io.sluice.verticles.rls;

/**
 * One entry of a domain's descriptor tree: a {@code key}, an optional {@code value} (exact, or a
 * prefix when it ends with {@code *}), an optional limit and the level of descriptors below it.
 *
 * @param value null for a key-only node, which matches any value
 * @param limit null when the node only leads to nested descriptors
 */
public record DescriptorNode(String key, String value, RateLimit limit, DescriptorLevel children) {

  boolean isWildcard() {
    return value != null && value.endsWith("*");
  }

  /** The node's part of a statistics path: {@code key_value}, or {@code key} without a value. */
  String statPart() {
    return value == null ? key : key + '_' + value;
  }
}
