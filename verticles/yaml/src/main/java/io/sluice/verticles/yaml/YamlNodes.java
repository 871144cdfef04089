package io.sluice.verticles.yaml;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading composed YAML ({@code new Yaml(new LoaderOptions()).compose(reader)}) rather than loaded
 * Java objects: nodes carry line numbers for error messages, scalars keep their exact text (so
 * {@code 0x1F} or {@code 010} go through the same parser as a flag would instead of being
 * reinterpreted as numbers), and nothing is ever instantiated from tags.
 */
public final class YamlNodes {

  private YamlNodes() {
  }

  /** Whether the node is {@code ~}, {@code null} or an empty value. */
  public static boolean isNull(Node node) {
    return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  /** The node's line, from 1; 0 when the node carries no position. */
  public static int lineOf(Node node) {
    return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
  }

  /** The node tree as plain values, with the line of every field; see {@link PlainDocument}. */
  public static PlainDocument plain(Node root) {
    Map<String, Integer> lines = new HashMap<>();
    List<String> problems = new ArrayList<>();
    lines.put("", lineOf(root));
    Object value = plain(root, "", lines, problems);
    return new PlainDocument(value, lines, problems);
  }

  private static Object plain(Node node, String path, Map<String, Integer> lines, List<String> problems) {
    if (node instanceof ScalarNode scalar) {
      return isNull(scalar) ? null : scalar.getValue();
    }
    if (node instanceof SequenceNode sequence) {
      List<Object> items = new ArrayList<>();
      for (Node item : sequence.getValue()) {
        String at = PlainDocument.item(path, items.size());
        lines.put(at, lineOf(item));
        items.add(plain(item, at, lines, problems));
      }
      return items;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    for (NodeTuple entry : ((MappingNode) node).getValue()) {
      Node key = entry.getKeyNode();
      if (!(key instanceof ScalarNode name)) {
        problems.add("field names must be plain names (line " + lineOf(key) + ")");
        continue;
      }
      String field = name.getValue();
      if (fields.containsKey(field)) {
        problems.add("'" + field + "' is given twice (line " + lineOf(key) + ")");
        continue;
      }
      String at = PlainDocument.field(path, field);
      lines.put(at, lineOf(key));
      fields.put(field, plain(entry.getValueNode(), at, lines, problems));
    }
    return fields;
  }
}
