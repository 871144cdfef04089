package io.sluice.verticles.yaml;

import java.util.List;
import java.util.Map;

/**
 * A YAML node tree as plain values ({@link YamlNodes#plain}): {@code Map<String, Object>} in
 * document order, {@code List<Object>}, scalars as their exact text and null for {@code ~}; with
 * the line of every field, so a reader can report a problem as {@code FILE:LINE: FIELD: …}.
 *
 * @param value    the plain value of the root node
 * @param lines    line (from 1) of each field's key and each list item, by path:
 *                 {@code quotas[0].limit} is field {@code limit} of the first item of the root's
 *                 {@code quotas}; the root itself is {@code ""}
 * @param problems what could not be turned into a plain value (a mapping key that is not a
 *                 plain name, a key given twice), each ending with its line; such keys are left out
 */
public record PlainDocument(Object value, Map<String, Integer> lines, List<String> problems) {

  public PlainDocument {
    lines = Map.copyOf(lines);
    problems = List.copyOf(problems);
  }

  /** The line of the field at {@code path}, or 0 when the document has no such field. */
  public int lineOf(String path) {
    return lines.getOrDefault(path, 0);
  }

  /** The path of field {@code field} of the mapping at {@code parent}. */
  public static String field(String parent, String field) {
    return parent.isEmpty() ? field : parent + "." + field;
  }

  /** The path of item {@code index} of the list at {@code parent}. */
  public static String item(String parent, int index) {
    return parent + "[" + index + "]";
  }
}
