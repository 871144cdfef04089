package io.sluice.testkit.layers;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * The package cycles of a graph: its strongly connected components of more than one package
 * (Tarjan's algorithm), each a set of packages that all reach each other.
 */
final class Cycles {

  private final PackageGraph graph;
  private final BiPredicate<String, String> exempt;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Integer> lowest = new HashMap<>();
  private final Deque<String> stack = new ArrayDeque<>();
  private final List<List<String>> found = new ArrayList<>();

  private Cycles(PackageGraph graph, BiPredicate<String, String> exempt) {
    this.graph = graph;
    this.exempt = exempt;
  }

  /**
   * The cycles of {@code graph}, leaving out the edges {@code from → to} for which
   * {@code exempt.test(to, from)}.
   */
  static List<List<String>> of(PackageGraph graph, BiPredicate<String, String> exempt) {
    Cycles cycles = new Cycles(graph, exempt);
    for (String p : graph.packages()) {
      if (!cycles.index.containsKey(p)) {
        cycles.visit(p);
      }
    }
    return cycles.found;
  }

  private void visit(String p) {
    index.put(p, index.size());
    lowest.put(p, index.get(p));
    stack.push(p);
    for (String q : graph.referredFrom(p).keySet()) {
      if (exempt.test(q, p)) {
        continue;
      }
      if (!index.containsKey(q)) {
        visit(q);
        lowest.put(p, Math.min(lowest.get(p), lowest.get(q)));
      } else if (stack.contains(q)) {
        lowest.put(p, Math.min(lowest.get(p), index.get(q)));
      }
    }
    if (lowest.get(p).equals(index.get(p))) {
      List<String> component = new ArrayList<>();
      String q;
      do {
        q = stack.pop();
        component.add(q);
      } while (!q.equals(p));
      if (component.size() > 1) {
        component.sort(null);
        found.add(component);
      }
    }
  }

  /** The edges inside a cycle, each with one reference that makes it. */
  static String describe(PackageGraph graph, List<String> cycle, BiPredicate<String, String> exempt) {
    List<String> edges = new ArrayList<>();
    for (String from : cycle) {
      graph.referredFrom(from).forEach((to, reference) -> {
        if (cycle.contains(to) && !exempt.test(to, from)) {
          edges.add(reference);
        }
      });
    }
    return String.join("; ", edges);
  }
}
