package io.sluice.verticles.rls;

import io.sluice.verticles.yaml.PlainDocument;

import java.util.ArrayList;
import java.util.List;

/**
 * The problems found in config files, each as {@code file:line: field: message}: the line is the
 * field's, or, for a field that is missing, the nearest enclosing one's.
 */
final class LocatedProblems {

  private final List<String> problems = new ArrayList<>();
  private String file;
  private PlainDocument document;

  /** Problems from now on are in this file, whose fields' lines {@code document} knows (null: none). */
  void in(String file, PlainDocument document) {
    this.file = file;
    this.document = document;
  }

  /** One problem at a field. */
  void at(String path, String message) {
    int line = 0;
    for (String at = path; document != null && line == 0; at = at.substring(0, Math.max(0, Math.max(at.lastIndexOf('.'), at.lastIndexOf('['))))) {
      line = document.lineOf(at);
      if (at.isEmpty()) {
        break;
      }
    }
    problems.add(file + ":" + line + ": " + (path.isEmpty() ? "" : path + ": ") + message);
  }

  /** One problem whose line is already known (or that has none): {@code file:<where>: message}. */
  void inFile(String where, String message) {
    problems.add(file + where + ": " + message);
  }

  void add(String located) {
    problems.add(located);
  }

  boolean isEmpty() {
    return problems.isEmpty();
  }

  List<String> all() {
    return List.copyOf(problems);
  }
}
