package io.sluice.verticles.rls;

import io.sluice.verticles.yaml.ConfigValues;
import io.sluice.verticles.yaml.PlainDocument;
import io.sluice.verticles.yaml.YamlNodes;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads envoyproxy/ratelimit's config files: one YAML file, or every {@code *.yaml} and
 * {@code *.yml} file of a directory (not hidden ones, not subdirectories), each holding one domain:
 *
 * <pre>
 * domain: &lt;name&gt;
 * descriptors:
 *   - key: &lt;key&gt;                 # required
 *     value: &lt;value&gt;             # optional; a trailing * matches every value with that prefix
 *     rate_limit:                 # optional
 *       unit: second|minute|hour|day|week|month|year
 *       requests_per_unit: &lt;0 … 4294967295&gt;
 *       name: &lt;name&gt;             # optional, what replaces: refers to
 *       replaces: [ {name: …} ]   # optional
 *       unlimited: true           # instead of unit and requests_per_unit
 *       algorithm: sliding_window # Sluice's extensions, read by AlgorithmReader: algorithm, window, burst
 *     shadow_mode: true|false
 *     detailed_metric: true|false
 *     descriptors: [ … ]          # the next level
 * </pre>
 *
 * Everything wrong is reported at once, each problem with its file, line and field; unknown fields
 * are problems too (a misspelt {@code request_per_unit} must not silently leave a limit out). Two
 * files may not define the same domain, and one level may not hold the same key and value twice.
 */
public final class RlsConfigReader {

  private static final List<String> FILE_FIELDS = List.of("domain", "descriptors");
  private static final List<String> DESCRIPTOR_FIELDS =
      List.of("key", "value", "rate_limit", "shadow_mode", "detailed_metric", "descriptors");
  private static final List<String> LIMIT_FIELDS = Stream.concat(
      Stream.of("unit", "requests_per_unit", "name", "replaces", "unlimited"), AlgorithmReader.FIELDS.stream()).toList();
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  private static final String UNITS = Arrays.stream(WindowUnit.values())
      .map(unit -> unit.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));

  private final List<String> problems = new ArrayList<>();
  private String file;
  private PlainDocument document;

  private RlsConfigReader() {
  }

  /** Reads a file, or every YAML file of a directory. */
  public static RlsConfig read(Path path) throws RlsConfigException {
    List<Path> files;
    if (Files.isDirectory(path)) {
      try (Stream<Path> listing = Files.list(path)) {
        files = listing.filter(RlsConfigReader::isConfigFile).sorted().toList();
      } catch (IOException e) {
        throw new RlsConfigException(List.of(path + ": cannot list the directory: " + e.getMessage()));
      }
    } else {
      files = List.of(path);
    }
    Map<String, String> texts = new LinkedHashMap<>();
    for (Path file : files) {
      try {
        texts.put(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new RlsConfigException(List.of(file + ": cannot read it: " + e));
      }
    }
    return parse(texts);
  }

  /** What {@link #read} looks at in a directory: the files a reload must notice. */
  public static boolean isConfigFile(Path file) {
    String name = file.getFileName().toString();
    return !name.startsWith(".") && (name.endsWith(".yaml") || name.endsWith(".yml")) && Files.isRegularFile(file);
  }

  /** Parses files' texts, by file name; every domain once. */
  public static RlsConfig parse(Map<String, String> texts) throws RlsConfigException {
    RlsConfigReader reader = new RlsConfigReader();
    Map<String, DescriptorLevel> domains = new HashMap<>();
    Map<String, String> definedIn = new HashMap<>();
    for (Map.Entry<String, String> text : texts.entrySet()) {
      reader.file = text.getKey();
      String domain = reader.readFile(text.getValue(), domains);
      if (domain != null) {
        String earlier = definedIn.putIfAbsent(domain, text.getKey());
        if (earlier != null) {
          reader.problem("domain", "domain '" + domain + "' is also defined in " + earlier
              + " (a domain lives in one file)");
        }
      }
    }
    if (!reader.problems.isEmpty()) {
      throw new RlsConfigException(reader.problems);
    }
    return new RlsConfig(domains, List.copyOf(texts.keySet()));
  }

  /** Reads one file into {@code domains}; returns its domain, or null when it has none. */
  private String readFile(String text, Map<String, DescriptorLevel> domains) {
    Node root;
    try (Reader in = new StringReader(text)) {
      root = new Yaml(new LoaderOptions()).compose(in);
    } catch (MarkedYAMLException e) {
      int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
      problems.add(file + ":" + line + ": not valid YAML: " + e.getProblem());
      return null;
    } catch (YAMLException | IOException e) {
      problems.add(file + ": not valid YAML: " + e.getMessage());
      return null;
    }
    if (root == null) {
      problems.add(file + ":1: the file is empty; it must define a domain and its descriptors");
      return null;
    }
    document = YamlNodes.plain(root);
    document.problems().forEach(problem -> problems.add(file + ": " + problem));
    if (!(document.value() instanceof Map<?, ?> fields)) {
      problem("", "a config file is a mapping with domain: and descriptors:, found " + ConfigValues.describe(document.value()));
      return null;
    }
    unknownFields(fields, "", FILE_FIELDS);
    Object domain = fields.get("domain");
    if (!(domain instanceof String name) || name.isEmpty()) {
      problem("domain", "every file needs a domain: a non-empty name, found " + ConfigValues.describe(domain));
      return null;
    }
    DescriptorLevel level = readLevel(fields.get("descriptors"), "descriptors", "");
    domains.put(name, level);
    return name;
  }

  private DescriptorLevel readLevel(Object value, String path, String parentStatKey) {
    if (value == null) {
      return DescriptorLevel.EMPTY;
    }
    if (!(value instanceof List<?> items)) {
      problem(path, "must be a list of descriptors, found " + ConfigValues.describe(value));
      return DescriptorLevel.EMPTY;
    }
    List<DescriptorNode> nodes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      String at = PlainDocument.item(path, i);
      DescriptorNode node = readDescriptor(items.get(i), at, parentStatKey);
      if (node == null) {
        continue;
      }
      if (!seen.add(node.key() + '\n' + node.value())) {
        problem(at, "key '" + node.key() + "'" + (node.value() == null ? " without a value" : " with value '"
            + node.value() + "'") + " is already defined on this level");
        continue;
      }
      nodes.add(node);
    }
    return new DescriptorLevel(nodes);
  }

  private DescriptorNode readDescriptor(Object value, String path, String parentStatKey) {
    if (!(value instanceof Map<?, ?> fields)) {
      problem(path, "a descriptor is a mapping with key:, found " + ConfigValues.describe(value));
      return null;
    }
    unknownFields(fields, path, DESCRIPTOR_FIELDS);
    String key = text(fields, path, "key", true);
    String entryValue = text(fields, path, "value", false);
    if (key == null) {
      return null;
    }
    if (entryValue != null && entryValue.indexOf('*') >= 0 && entryValue.indexOf('*') != entryValue.length() - 1) {
      problem(PlainDocument.field(path, "value"), "a wildcard * may only end the value, found '" + entryValue + "'");
    }
    String statPart = entryValue == null ? key : key + '_' + entryValue;
    String statKey = parentStatKey.isEmpty() ? statPart : parentStatKey + '.' + statPart;
    boolean shadow = flag(fields, path, "shadow_mode");
    boolean detailed = flag(fields, path, "detailed_metric");
    RateLimit limit = readLimit(fields.get("rate_limit"), PlainDocument.field(path, "rate_limit"), shadow, statKey, detailed);
    DescriptorLevel children = readLevel(fields.get("descriptors"), PlainDocument.field(path, "descriptors"), statKey);
    return new DescriptorNode(key, entryValue, limit, children);
  }

  private RateLimit readLimit(Object value, String path, boolean shadow, String statKey, boolean detailed) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> fields)) {
      problem(path, "must be a mapping with unit: and requests_per_unit:, found " + ConfigValues.describe(value));
      return null;
    }
    unknownFields(fields, path, LIMIT_FIELDS);
    boolean unlimited = flag(fields, path, "unlimited");
    String name = text(fields, path, "name", false);
    List<String> replaces = readReplaces(fields.get("replaces"), PlainDocument.field(path, "replaces"));
    if (unlimited) {
      for (String field : List.of("unit", "requests_per_unit")) {
        if (fields.containsKey(field)) {
          problem(PlainDocument.field(path, field), "an unlimited limit has no " + field);
        }
      }
      AlgorithmReader.refuseOnUnlimited(fields, path, this::problem);
      return new RateLimit(name == null ? "" : name, 0, null, true, replaces, shadow, statKey, detailed);
    }
    String unitText = text(fields, path, "unit", true);
    WindowUnit unit = null;
    if (unitText != null) {
      unit = WindowUnit.named(unitText).orElse(null);
      if (unit == null) {
        problem(PlainDocument.field(path, "unit"), "must be one of " + UNITS + ", found '" + unitText + "'");
      }
    }
    Long requests = requests(fields, path);
    if (unit == null || requests == null) {
      return null;
    }
    Algorithm algorithm = AlgorithmReader.read(fields, path, unit, requests, this::problem);
    return algorithm == null ? null
        : new RateLimit(name == null ? "" : name, requests, unit, false, replaces, shadow, statKey, detailed, algorithm);
  }

  private Long requests(Map<?, ?> fields, String path) {
    String at = PlainDocument.field(path, "requests_per_unit");
    Object value = fields.get("requests_per_unit");
    if (value == null) {
      problem(fields.containsKey("requests_per_unit") ? at : path, "requests_per_unit is required (a whole number from 0 to "
          + MAX_UINT32 + ", or unlimited: true)");
      return null;
    }
    try {
      long requests = value instanceof String digits ? Long.parseLong(digits.trim()) : -1;
      if (requests >= 0 && requests <= MAX_UINT32) {
        return requests;
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    problem(at, "must be a whole number from 0 to " + MAX_UINT32 + ", found " + ConfigValues.describe(value));
    return null;
  }

  private List<String> readReplaces(Object value, String path) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> items)) {
      problem(path, "must be a list of {name: …}, found " + ConfigValues.describe(value));
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String at = PlainDocument.item(path, i);
      if (!(items.get(i) instanceof Map<?, ?> fields)) {
        problem(at, "must be a mapping {name: …}, found " + ConfigValues.describe(items.get(i)));
        continue;
      }
      unknownFields(fields, at, List.of("name"));
      String name = text(fields, at, "name", true);
      if (name != null) {
        names.add(name);
      }
    }
    return names;
  }

  private String text(Map<?, ?> fields, String path, String field, boolean required) {
    Object value = fields.get(field);
    if (value == null) {
      if (required) {
        problem(fields.containsKey(field) ? PlainDocument.field(path, field) : path, field + " is required");
      }
      return null;
    }
    if (!(value instanceof String text) || text.isEmpty()) {
      problem(PlainDocument.field(path, field), "must be a non-empty text, found " + ConfigValues.describe(value));
      return null;
    }
    return text;
  }

  private boolean flag(Map<?, ?> fields, String path, String field) {
    Object value = fields.get(field);
    if (value == null) {
      return false;
    }
    if (value instanceof String text && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(text);
    }
    problem(PlainDocument.field(path, field), "must be true or false, found " + ConfigValues.describe(value));
    return false;
  }

  private void unknownFields(Map<?, ?> fields, String path, List<String> known) {
    for (Object field : fields.keySet()) {
      if (!known.contains(field)) {
        problem(PlainDocument.field(path, (String) field), "unknown field (known here: " + String.join(", ", known) + ")");
      }
    }
  }

  /** One problem at a field: {@code file:line: field: message}. */
  private void problem(String path, String message) {
    int line = 0;
    // A field that is missing has no line: the nearest enclosing one that is there says where.
    for (String at = path; document != null && line == 0; at = at.substring(0, Math.max(0, Math.max(at.lastIndexOf('.'), at.lastIndexOf('['))))) {
      line = document.lineOf(at);
      if (at.isEmpty()) {
        break;
      }
    }
    problems.add(file + ":" + line + ": " + (path.isEmpty() ? "" : path + ": ") + message);
  }
}
