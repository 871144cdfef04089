package io.sluice.testkit.layers;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A module's packages in layers, bottom to top, and the check that its compiled classes keep to
 * them: every package has a layer, a package refers only to packages of its own layer or of the
 * layers below, and no packages refer to each other in a cycle (siblings of one layer included).
 *
 * <p>An {@code impl} subpackage and its api package count as one unit: the api may name its impl
 * (vertx-redis-client's model, where the api names its impl's factory), so the edge from
 * {@code x} to {@code x.impl} is neither a cycle nor an upward reference. Only that edge is
 * exempt: a cycle that passes through another package is one.
 *
 * <p>Packages are named relative to the module's root package, {@code ""} being the root itself.
 * What counts as a reference is in {@link ClassReferences}.
 */
public final class Layers {

  private static final String IMPL = ".impl";

  private final String root;
  private final List<List<String>> layers = new ArrayList<>();

  private Layers(String root) {
    this.root = root;
  }

  /** The layers of the packages under {@code rootPackage}, to be listed from the bottom with {@link #layer}. */
  public static Layers under(String rootPackage) {
    return new Layers(rootPackage);
  }

  /** The next layer up: these packages (relative to the root) may use each other and every layer below. */
  public Layers layer(String... packages) {
    layers.add(List.of(packages));
    return this;
  }

  /**
   * Checks the main classes of the module whose test {@code testClass} is: its target/classes,
   * beside the target/test-classes the test was loaded from.
   *
   * @throws AssertionError listing every violation
   */
  public void assertHeldByModuleOf(Class<?> testClass) {
    assertHeldIn(classesOf(testClass).resolveSibling("classes"));
  }

  /** @throws AssertionError listing every violation of the classes in {@code classes} */
  void assertHeldIn(Path classes) {
    List<String> violations = violationsIn(classes);
    if (!violations.isEmpty()) {
      throw new AssertionError("the packages under " + root + " break their layering (" + violations.size()
          + "):\n  " + String.join("\n  ", violations));
    }
  }

  /** What breaks the layering in a directory of compiled classes; empty when nothing does. */
  List<String> violationsIn(Path classes) {
    return violationsOf(PackageGraph.read(root, classes));
  }

  /** Layers are numbered from 1, the bottom one, in what the check reports. */
  List<String> violationsOf(PackageGraph graph) {
    List<String> violations = new ArrayList<>();
    Map<String, Integer> layerOf = new LinkedHashMap<>();
    for (int i = 0; i < layers.size(); i++) {
      for (String relative : layers.get(i)) {
        if (layerOf.put(absolute(relative), i + 1) != null) {
          violations.add(absolute(relative) + " is in the layer list twice");
        }
      }
    }
    Set<String> packages = graph.packages();
    for (String listed : layerOf.keySet()) {
      if (!packages.contains(listed)) {
        violations.add(listed + " is in the layer list but has no classes: take it out of the list");
      }
    }
    for (String unlisted : packages) {
      if (!layerOf.containsKey(unlisted)) {
        violations.add(unlisted + " has no layer: add it to the layer list where it belongs");
      }
    }
    for (String from : packages) {
      graph.referredFrom(from).forEach((to, reference) -> {
        Integer fromLayer = layerOf.get(from);
        Integer toLayer = layerOf.get(to);
        if (fromLayer != null && toLayer != null && toLayer > fromLayer && !isImplOf(to, from)) {
          violations.add(from + " (layer " + fromLayer + ") uses " + to + " of a higher layer (" + toLayer
              + "): " + reference);
        }
      });
    }
    for (List<String> cycle : Cycles.of(graph, Layers::isImplOf)) {
      violations.add("cycle between " + String.join(", ", cycle) + ": " + Cycles.describe(graph, cycle, Layers::isImplOf));
    }
    return violations;
  }

  /** Whether {@code impl} is the {@code impl} subpackage of {@code api}. */
  static boolean isImplOf(String impl, String api) {
    return impl.equals(api + IMPL);
  }

  private String absolute(String relative) {
    return relative.isEmpty() ? root : root + "." + relative;
  }

  static Path classesOf(Class<?> type) {
    try {
      Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!Files.isDirectory(location)) {
        throw new IllegalStateException(type + " was loaded from " + location + ", not from a classes directory");
      }
      return location;
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
