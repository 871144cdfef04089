package io.sluice.gateway.config;

import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.yaml.YamlNodes;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads the YAML config file into raw text per option, with the line of each key, and the
 * {@code policies:} section of the HTTP check API ({@link PolicySection}).
 *
 * <p>The file is composed into a node tree rather than loaded into Java objects, for two reasons:
 * nodes carry line numbers for error messages, and scalars keep their exact text, so every value
 * goes through the same parser as a flag would ({@code 0x1F} or {@code 010} are not silently
 * reinterpreted as numbers, and nothing is ever instantiated from tags).
 */
final class YamlConfigFile {

  /** What the file holds: the raw text of each option it sets, and the check API's policies. */
  record Contents(Map<Option<?>, ConfigLoader.RawValue> options, Policies policies) {
  }

  private final Path path;
  private final List<String> problems;
  private final List<String> policyProblems;
  private final Map<Option<?>, ConfigLoader.RawValue> found = new HashMap<>();
  private Policies policies = Policies.none();
  /** Line of each key already seen, to report a setting given twice (nested and dotted, say). */
  private final Map<String, Integer> firstLineOfKey = new HashMap<>();

  private YamlConfigFile(Path path, List<String> problems, List<String> policyProblems) {
    this.path = path;
    this.problems = problems;
    this.policyProblems = policyProblems;
  }

  /**
   * @param path         the file, as the user gave it (messages quote it unchanged)
   * @param pathOrigin   where the path came from, for "cannot read" messages
   * @param problems     receives every problem found outside the policies; the file's other
   *                     settings are still read
   * @param policyProblems receives the problems of the {@code policies:} section, which a reload
   *                     refuses on their own
   * @return the raw text of each option the file sets, with a {@code file:line} origin, and the
   *         policies of its {@code policies:} section
   */
  static Contents read(Path path, String pathOrigin, List<String> problems, List<String> policyProblems) {
    YamlConfigFile file = new YamlConfigFile(path, problems, policyProblems);
    file.readFile(pathOrigin);
    return new Contents(file.found, file.policies);
  }

  private void readFile(String pathOrigin) {
    String cannotRead = "cannot read config file " + path + " (given by " + pathOrigin + "): ";
    Optional<String> notAFile = FileTrouble.beforeReading(path);
    if (notAFile.isPresent()) {
      problems.add(cannotRead + notAFile.get());
      return;
    }
    Node root;
    try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      root = new Yaml(new LoaderOptions()).compose(reader);
    } catch (MarkedYAMLException malformed) {
      problems.add(at(malformed.getProblemMark()) + ": malformed YAML: " + malformed.getProblem()
          + (malformed.getContext() == null ? "" : " (" + malformed.getContext() + ")"));
      return;
    } catch (YAMLException | IOException unreadable) {
      // SnakeYAML wraps the reader's IOExceptions, bad UTF-8 included.
      Throwable cause = unreadable instanceof YAMLException && unreadable.getCause() != null ? unreadable.getCause() : unreadable;
      problems.add(cannotRead + (cause instanceof IOException io ? FileTrouble.reason(io) : String.valueOf(cause.getMessage())));
      return;
    }
    if (root == null || YamlNodes.isNull(root)) {
      return; // an empty file sets nothing
    }
    if (!(root instanceof MappingNode top)) {
      problems.add(at(root.getStartMark()) + ": expected option keys at the top level (see deploy/sluice.yaml)");
      return;
    }
    readSection(top, "");
  }

  private void readSection(MappingNode section, String prefix) {
    for (NodeTuple entry : section.getValue()) {
      Node keyNode = entry.getKeyNode();
      Node valueNode = entry.getValueNode();
      if (!(keyNode instanceof ScalarNode name)) {
        problems.add(at(keyNode.getStartMark()) + ": keys must be plain names");
        continue;
      }
      String key = prefix + name.getValue();
      int line = YamlNodes.lineOf(keyNode);
      Optional<Option<?>> option = Options.byYamlKey(key);
      if (key.equals(PolicySection.KEY)) {
        // Not an option: a structure of its own, which only the file can give.
        Integer earlier = firstLineOfKey.putIfAbsent(key, line);
        if (earlier != null) {
          policyProblems.add(at(line) + ": '" + key + "' is given twice (first at line " + earlier + ")");
        } else {
          policies = PolicySection.read(valueNode, this::at, policyProblems);
        }
      } else if (option.isPresent()) {
        readValue(option.get(), key, line, valueNode);
      } else if (Options.isYamlSection(key)) {
        if (valueNode instanceof MappingNode nested) {
          readSection(nested, key + ".");
        } else if (!YamlNodes.isNull(valueNode)) {
          problems.add(at(line) + ": '" + key + "' is a section holding " + keysUnder(key) + ", not a value");
        }
      } else {
        problems.add(at(line) + ": unknown key '" + key + "'" + suggestKey(key));
      }
    }
  }

  private void readValue(Option<?> option, String key, int line, Node valueNode) {
    if (valueNode instanceof MappingNode || valueNode instanceof SequenceNode) {
      String shape = valueNode instanceof MappingNode ? "a mapping" : "a list";
      problems.add(at(line) + ": '" + key + "' takes a single value, not " + shape + " (" + option.flag() + ")");
      return;
    }
    Integer earlier = firstLineOfKey.putIfAbsent(key, line);
    if (earlier != null) {
      problems.add(at(line) + ": '" + key + "' is set twice (first at line " + earlier + ")");
      return;
    }
    if (YamlNodes.isNull(valueNode)) {
      return; // "key:" or "key: ~" leaves the built-in default in place
    }
    String text = ((ScalarNode) valueNode).getValue();
    found.put(option, new ConfigLoader.RawValue(text, at(line) + " (" + key + ")"));
  }

  private static String keysUnder(String section) {
    return Options.ALL.stream()
        .flatMap(option -> option.yamlKey().stream())
        .filter(key -> key.startsWith(section + "."))
        .collect(Collectors.joining(", "));
  }

  /** Suggests the nearest key; a key spelled like a flag ({@code tcp-port}) maps to its own key. */
  private static String suggestKey(String key) {
    Optional<String> suggestion = Options.byName(key).flatMap(Option::yamlKey);
    if (suggestion.isEmpty()) {
      List<String> keys = new ArrayList<>();
      Options.ALL.forEach(option -> option.yamlKey().ifPresent(keys::add));
      suggestion = Spelling.closest(key, keys);
    }
    return suggestion.map(closest -> "; did you mean '" + closest + "'?").orElse("");
  }

  private String at(int line) {
    return "config file " + path + (line > 0 ? ":" + line : "");
  }

  private String at(Mark mark) {
    return mark == null ? at(0) : at(mark.getLine() + 1) + ":" + (mark.getColumn() + 1);
  }
}
