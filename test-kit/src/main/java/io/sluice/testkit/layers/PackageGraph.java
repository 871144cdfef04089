package io.sluice.testkit.layers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The packages under one root package and which of them each one refers to, from the compiled
 * classes of one module. For each edge it keeps one class that makes it, for the failure message.
 */
final class PackageGraph {

  private final String root;
  /** Package → package it refers to → one reference that does, "a.B → c.D". */
  private final Map<String, Map<String, String>> edges = new TreeMap<>();

  PackageGraph(String root) {
    this.root = root;
  }

  /** The graph of the classes under {@code root} in a classes directory (target/classes). */
  static PackageGraph read(String root, Path classes) {
    PackageGraph graph = new PackageGraph(root);
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
        String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
        String className = name.substring(0, name.length() - ".class".length());
        if (!graph.holds(className) || className.endsWith("package-info") || className.endsWith("module-info")) {
          continue;
        }
        graph.addPackage(packageOf(className));
        for (String referred : ClassReferences.of(file)) {
          graph.refer(className, referred);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading the classes in " + classes, e);
    }
    graph.edges.values().forEach(to -> to.keySet().retainAll(graph.edges.keySet()));
    return graph;
  }

  /** A package of the module (with or without references of its own). */
  void addPackage(String name) {
    edges.computeIfAbsent(name, p -> new TreeMap<>());
  }

  /** Class {@code from} refers to class {@code to}: an edge when they are in different packages under the root. */
  void refer(String from, String to) {
    String fromPackage = packageOf(from);
    String toPackage = packageOf(to);
    if (holds(to) && !fromPackage.equals(toPackage)) {
      addPackage(fromPackage);
      edges.get(fromPackage).putIfAbsent(toPackage, from + " → " + to);
    }
  }

  private boolean holds(String className) {
    return className.startsWith(root + ".");
  }

  static String packageOf(String className) {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? "" : className.substring(0, dot);
  }

  String root() {
    return root;
  }

  Set<String> packages() {
    return new TreeSet<>(edges.keySet());
  }

  /** The packages {@code from} refers to, each with one reference that does. */
  Map<String, String> referredFrom(String from) {
    return edges.getOrDefault(from, Map.of());
  }
}
