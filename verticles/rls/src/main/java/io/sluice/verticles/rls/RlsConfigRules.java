package io.sluice.verticles.rls;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What makes a built descriptor tree unusable, whatever it was read from (a YAML file, or any other
 * source that builds {@link DescriptorNode}s): envoyproxy/ratelimit's load-time checks. Each problem
 * names the field it is about, relative to the descriptor ({@code rate_limit.replaces[0].name}), or
 * the position of the descriptor in its level, so that a reader can say where it is in its own
 * terms.
 */
public final class RlsConfigRules {

  /** One problem: the field it is about (relative), and what is wrong. */
  public record Problem(String field, String message) {
  }

  /** A descriptor defined twice on one level: its position in the list checked, and why. */
  public record Duplicate(int index, String message) {
  }

  private RlsConfigRules() {
  }

  /** The problems of one descriptor (not of its children, which are checked on their own). */
  public static List<Problem> ofDescriptor(DescriptorNode node) {
    List<Problem> problems = new ArrayList<>();
    if (node.key() == null || node.key().isEmpty()) {
      problems.add(new Problem("key", "a descriptor needs a non-empty key"));
    }
    if (node.shareThreshold() && !node.isWildcard()) {
      problems.add(new Problem("share_threshold", "share_threshold applies to a wildcard value (one holding *), found "
          + (node.value() == null ? "no value" : "'" + node.value() + "'")));
    }
    RateLimit limit = node.limit();
    if (limit != null) {
      for (int i = 0; i < limit.replaces().size(); i++) {
        String replaced = limit.replaces().get(i);
        String at = "rate_limit.replaces[" + i + "].name";
        if (replaced == null || replaced.isEmpty()) {
          problems.add(new Problem(at, "a replaces entry needs a non-empty name"));
        } else if (replaced.equals(limit.name())) {
          problems.add(new Problem(at, "a limit cannot replace itself ('" + replaced + "' is its own name)"));
        }
      }
    }
    return problems;
  }

  /** The problems of one level: the same key and value twice. */
  public static List<Duplicate> ofLevel(List<DescriptorNode> nodes) {
    List<Duplicate> problems = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      DescriptorNode node = nodes.get(i);
      if (!seen.add(node.key() + '\n' + node.value())) {
        problems.add(new Duplicate(i, "key '" + node.key() + "'" + (node.value() == null ? " without a value"
            : " with value '" + node.value() + "'") + " is already defined on this level"));
      }
    }
    return problems;
  }
}
