package io.sluice.protocol.udp.rulefile;

import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.yaml.PlainDocument;
import io.sluice.verticles.yaml.YamlNodes;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text of a rules file (YAML, the format of {@code deploy/rules/musicbrainz.yaml}) into a
 * {@link RuleSet}. Every problem names the file, and the line when it is about one field:
 * {@code rules.yaml:12: rules[3].pattern: invalid regular expression …}.
 */
public final class RuleFile {

  private RuleFile() {
  }

  /**
   * @param text the file's content
   * @param name how problems name the file (its path, as the operator gave it)
   * @throws RuleFileException when the text is not YAML, not a mapping, or {@link RuleSetReader}
   *     finds problems in the table; the message lists them all
   */
  public static RuleSet read(String text, String name) throws RuleFileException {
    Object document;
    PlainDocument lines;
    try {
      // SafeConstructor: plain maps, lists and scalars only, never arbitrary Java types. The node
      // tree is composed too, for the line of each field.
      document = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
      Node root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
      lines = root == null ? null : YamlNodes.plain(root);
    } catch (MarkedYAMLException malformed) {
      throw new RuleFileException(name + ":" + (malformed.getProblemMark().getLine() + 1) + ": malformed YAML: "
          + malformed.getProblem());
    } catch (YAMLException malformed) {
      throw new RuleFileException(name + ": malformed YAML: " + malformed.getMessage());
    }
    if (!(document instanceof Map)) {
      throw new RuleFileException(name + ": a rule table is a YAML mapping (stats-only, rewrites, rules, default)");
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> table = (Map<String, ?>) document;
    try {
      return RuleSetReader.read(table);
    } catch (RuleConfigException invalid) {
      List<String> located = new ArrayList<>();
      for (String problem : invalid.problems()) {
        located.add(locate(name, lines, problem));
      }
      throw new RuleFileException(located.size() == 1 ? located.get(0)
          : name + ": " + located.size() + " problems:" + System.lineSeparator() + "  - "
              + String.join(System.lineSeparator() + "  - ", located));
    }
  }

  /**
   * {@code FILE:LINE: problem}: the reader names the field a problem is about first
   * ({@code rules[3].pattern: …}); the deepest part of that path the file has gives the line.
   */
  private static String locate(String name, PlainDocument lines, String problem) {
    int colon = problem.indexOf(": ");
    String path = colon < 0 ? "" : problem.substring(0, colon);
    while (lines != null && !path.isEmpty()) {
      int line = lines.lineOf(path);
      if (line > 0) {
        return name + ":" + line + ": " + problem;
      }
      int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
      path = cut < 0 ? "" : path.substring(0, cut);
    }
    return name + ": " + problem;
  }
}
