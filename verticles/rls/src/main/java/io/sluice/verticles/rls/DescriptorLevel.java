package io.sluice.verticles.rls;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The descriptors of one level of a domain's tree, looked up as envoyproxy/ratelimit does: an exact
 * key and value first, then the wildcard values ({@code value*}, {@code a*b}: see
 * {@link WildcardPattern}) in file order, then the key alone. Exact and key-only nodes are kept apart, so a key {@code a_b} can never be mistaken
 * for key {@code a} with value {@code b}.
 */
public final class DescriptorLevel {

  public static final DescriptorLevel EMPTY = new DescriptorLevel(List.of());

  private final List<DescriptorNode> nodes;
  private final Map<String, Map<String, DescriptorNode>> exact = new HashMap<>();
  private final Map<String, DescriptorNode> keyOnly = new HashMap<>();
  private final List<DescriptorNode> wildcards = new ArrayList<>();
  private final List<WildcardPattern> patterns = new ArrayList<>();

  /** @param nodes in file order; the reader has refused two with the same key and value */
  public DescriptorLevel(List<DescriptorNode> nodes) {
    this.nodes = List.copyOf(nodes);
    for (DescriptorNode node : this.nodes) {
      if (node.value() == null) {
        keyOnly.put(node.key(), node);
      } else if (node.isWildcard()) {
        wildcards.add(node);
        patterns.add(new WildcardPattern(node.value()));
      } else {
        exact.computeIfAbsent(node.key(), k -> new HashMap<>()).put(node.value(), node);
      }
    }
  }

  /** The node an entry reaches on this level, or null. */
  DescriptorNode find(String key, String value) {
    Map<String, DescriptorNode> values = exact.get(key);
    DescriptorNode found = values == null ? null : values.get(value);
    if (found != null) {
      return found;
    }
    for (int i = 0; i < wildcards.size(); i++) {
      if (wildcards.get(i).key().equals(key) && patterns.get(i).matches(value)) {
        return wildcards.get(i);
      }
    }
    return keyOnly.get(key);
  }

  public List<DescriptorNode> nodes() {
    return nodes;
  }

  public boolean isEmpty() {
    return nodes.isEmpty();
  }
}
