package io.sluice.gateway.config;

import io.sluice.strategy.policy.Policies;
import io.sluice.strategy.policy.Policy;
import io.sluice.strategy.policy.PolicyParser;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The {@code policies:} section of the config file: a mapping of policy name to definition, read
 * into plain values (scalars as their exact text) and handed to the pure {@link PolicyParser}. This
 * class only walks YAML nodes and puts {@code file:line} in front of each problem. The format is
 * documented in deploy/examples/sluice.yaml.
 */
final class PolicySection {

  static final String KEY = "policies";

  private final IntFunction<String> at;
  private final List<String> problems;

  private PolicySection(IntFunction<String> at, List<String> problems) {
    this.at = at;
    this.problems = problems;
  }

  /**
   * @param at       renders a line number as {@code config file PATH:LINE}
   * @param problems receives every problem; valid policies are still returned
   */
  static Policies read(Node section, IntFunction<String> at, List<String> problems) {
    return new PolicySection(at, problems).policies(section);
  }

  private Policies policies(Node section) {
    if (isNull(section)) {
      return Policies.none();
    }
    if (!(section instanceof MappingNode)) {
      problems.add(at.apply(lineOf(section)) + ": '" + KEY + "' is a mapping of policy name to definition, "
          + "such as per-key-5-per-10s: {strategy: fixed_window, limit: 5, window: 10s}");
      return Policies.none();
    }
    Map<String, Integer> lines = new LinkedHashMap<>();
    List<Policy> policies = new ArrayList<>();
    for (NodeTuple entry : ((MappingNode) section).getValue()) {
      int line = lineOf(entry.getKeyNode());
      if (!(entry.getKeyNode() instanceof ScalarNode)) {
        problems.add(at.apply(line) + ": policy names must be plain names");
        continue;
      }
      String name = ((ScalarNode) entry.getKeyNode()).getValue();
      Integer earlier = lines.putIfAbsent(name, line);
      if (earlier != null) {
        problems.add(at.apply(line) + ": policy '" + name + "' is defined twice (first at line " + earlier + ")");
        continue;
      }
      List<String> found = new ArrayList<>();
      Object spec = plain(entry.getValueNode(), "policy '" + name + "': ", found);
      Policy policy = PolicyParser.parse(name, spec, found);
      found.forEach(problem -> problems.add(at.apply(line) + ": " + problem));
      if (policy != null) {
        policies.add(policy);
      }
    }
    return Policies.of(policies);
  }

  /** Scalars as their text, so the parser sees exactly what was written; null for {@code ~}. */
  private Object plain(Node node, String policy, List<String> found) {
    if (node instanceof ScalarNode) {
      return isNull(node) ? null : ((ScalarNode) node).getValue();
    }
    if (node instanceof SequenceNode) {
      List<Object> items = new ArrayList<>();
      for (Node item : ((SequenceNode) node).getValue()) {
        items.add(plain(item, policy, found));
      }
      return items;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    for (NodeTuple entry : ((MappingNode) node).getValue()) {
      if (!(entry.getKeyNode() instanceof ScalarNode)) {
        found.add(policy + "field names must be plain names (line " + lineOf(entry.getKeyNode()) + ")");
        continue;
      }
      String field = ((ScalarNode) entry.getKeyNode()).getValue();
      if (fields.containsKey(field)) {
        found.add(policy + "'" + field + "' is given twice (line " + lineOf(entry.getKeyNode()) + ")");
        continue;
      }
      fields.put(field, plain(entry.getValueNode(), policy, found));
    }
    return fields;
  }

  private static boolean isNull(Node node) {
    return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  private static int lineOf(Node node) {
    return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
  }
}
