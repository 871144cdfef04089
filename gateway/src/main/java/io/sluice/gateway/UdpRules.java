package io.sluice.gateway;

import io.sluice.gateway.config.FileTrouble;
import io.sluice.verticles.config.PlainDocument;
import io.sluice.verticles.config.YamlNodes;
import io.sluice.protocol.udp.rulefile.RuleSetReader;
import io.sluice.protocol.udp.rulefile.RuleConfigException;
import io.sluice.protocol.udp.rules.RuleSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the UDP rule table from its YAML file; no file means the original's allow-everything
 * default. Every problem names the file, and the line when it is about one field:
 * {@code rules.yaml:12: rules[3].pattern: invalid regular expression …}.
 */
final class UdpRules {

  /** The rule table cannot be used; the message is ready for an operator. */
  static final class RulesFileException extends Exception {
    private static final long serialVersionUID = 1L;

    RulesFileException(String message) {
      super(message);
    }
  }

  private UdpRules() {
  }

  static RuleSet load(Optional<Path> file) throws RulesFileException {
    return file.isEmpty() ? RuleSet.allowAll() : load(file.get());
  }

  static RuleSet load(Path file) throws RulesFileException {
    String cannotRead = "cannot read rules file " + file + " (--rules): ";
    Optional<String> notAFile = FileTrouble.beforeReading(file);
    if (notAFile.isPresent()) {
      throw new RulesFileException(cannotRead + notAFile.get());
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException trouble) {
      throw new RulesFileException(cannotRead + FileTrouble.reason(trouble));
    }
    Object document;
    PlainDocument lines;
    try {
      // SafeConstructor: plain maps, lists and scalars only, never arbitrary Java types. The node
      // tree is composed too, for the line of each field.
      document = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
      Node root = new Yaml(new LoaderOptions()).compose(new java.io.StringReader(text));
      lines = root == null ? null : YamlNodes.plain(root);
    } catch (MarkedYAMLException malformed) {
      throw new RulesFileException(file + ":" + (malformed.getProblemMark().getLine() + 1) + ": malformed YAML: "
          + malformed.getProblem());
    } catch (YAMLException malformed) {
      throw new RulesFileException(file + ": malformed YAML: " + malformed.getMessage());
    }
    if (!(document instanceof Map)) {
      throw new RulesFileException(file + ": a rule table is a YAML mapping (stats-only, rewrites, rules, default)");
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> table = (Map<String, ?>) document;
    try {
      return RuleSetReader.read(table);
    } catch (RuleConfigException invalid) {
      List<String> located = new ArrayList<>();
      for (String problem : invalid.problems()) {
        located.add(locate(file, lines, problem));
      }
      throw new RulesFileException(located.size() == 1 ? located.get(0)
          : file + ": " + located.size() + " problems:" + System.lineSeparator() + "  - "
              + String.join(System.lineSeparator() + "  - ", located));
    }
  }

  /**
   * {@code FILE:LINE: problem}: the reader names the field a problem is about first
   * ({@code rules[3].pattern: …}); the deepest part of that path the file has gives the line.
   */
  private static String locate(Path file, PlainDocument lines, String problem) {
    int colon = problem.indexOf(": ");
    String path = colon < 0 ? "" : problem.substring(0, colon);
    while (lines != null && !path.isEmpty()) {
      int line = lines.lineOf(path);
      if (line > 0) {
        return file + ":" + line + ": " + problem;
      }
      int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
      path = cut < 0 ? "" : path.substring(0, cut);
    }
    return file + ": " + problem;
  }
}
