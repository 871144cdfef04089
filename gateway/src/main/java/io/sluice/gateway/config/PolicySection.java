package io.sluice.gateway.config;

import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.strategies.policy.PolicyParser;
import io.sluice.verticles.yaml.PlainDocument;
import io.sluice.verticles.yaml.YamlNodes;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The {@code policies:} section of the config file: a mapping of policy name to definition, each
 * read into plain values ({@link YamlNodes#plain}: scalars as their exact text) and handed to the
 * pure {@link PolicyParser}. This class only walks the policy names and puts {@code file:line} in
 * front of each problem. The format is documented in deploy/examples/sluice.yaml.
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
    if (YamlNodes.isNull(section)) {
      return Policies.none();
    }
    if (!(section instanceof MappingNode mapping)) {
      problems.add(at.apply(YamlNodes.lineOf(section)) + ": '" + KEY + "' is a mapping of policy name to definition, "
          + "such as per-key-5-per-10s: {strategy: fixed_window, limit: 5, window: 10s}");
      return Policies.none();
    }
    Map<String, Integer> lines = new LinkedHashMap<>();
    List<Policy> policies = new ArrayList<>();
    for (NodeTuple entry : mapping.getValue()) {
      int line = YamlNodes.lineOf(entry.getKeyNode());
      if (!(entry.getKeyNode() instanceof ScalarNode key)) {
        problems.add(at.apply(line) + ": policy names must be plain names");
        continue;
      }
      String name = key.getValue();
      Integer earlier = lines.putIfAbsent(name, line);
      if (earlier != null) {
        problems.add(at.apply(line) + ": policy '" + name + "' is defined twice (first at line " + earlier + ")");
        continue;
      }
      // Scalars as their text, so the parser sees exactly what was written.
      PlainDocument spec = YamlNodes.plain(entry.getValueNode());
      List<String> found = new ArrayList<>();
      spec.problems().forEach(problem -> found.add("policy '" + name + "': " + problem));
      Policy policy = PolicyParser.parse(name, spec.value(), found);
      found.forEach(problem -> problems.add(at.apply(line) + ": " + problem));
      if (policy != null) {
        policies.add(policy);
      }
    }
    return Policies.of(policies);
  }
}
