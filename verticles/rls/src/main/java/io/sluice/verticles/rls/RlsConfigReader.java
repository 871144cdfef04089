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
 *     value: &lt;value&gt;             # optional; each * matches any run of characters
 *     rate_limit:                 # optional
 *       unit: second|minute|hour|day|week|month|year
 *       requests_per_unit: &lt;0 … 4294967295&gt;
 *       name: &lt;name&gt;             # optional, what replaces: refers to
 *       replaces: [ {name: …} ]   # optional
 *       unlimited: true           # instead of unit and requests_per_unit
 *       algorithm: sliding_window # Sluice's extensions, read by AlgorithmReader: algorithm, window, burst
 *     shadow_mode: true|false
 *     quota_mode: true|false
 *     detailed_metric: true|false
 *     value_to_metric: true|false
 *     share_threshold: true|false # with a wildcard value: its values share one counter
 *     metadata: { … }             # any mapping
 *     descriptors: [ … ]          # the next level
 * </pre>
 *
 * Everything wrong is reported at once, each problem with its file, line and field; unknown fields
 * are problems too (a misspelt {@code request_per_unit} must not silently leave a limit out). Two
 * files may define the same domain only when domains are merged (envoyproxy/ratelimit's
 * MERGE_DOMAIN_CONFIG): their descriptors then make one tree, where one level still may not hold
 * the same key and value twice. The fields are read by {@link DescriptorReader} and the tree checked
 * by {@link RlsConfigRules}.
 */
public final class RlsConfigReader {

  private static final List<String> FILE_FIELDS = List.of("domain", "descriptors");

  private final LocatedProblems problems = new LocatedProblems();
  private final DescriptorReader descriptors = new DescriptorReader(problems);
  private final boolean mergeDomains;

  private RlsConfigReader(boolean mergeDomains) {
    this.mergeDomains = mergeDomains;
  }

  /** Reads a file, or every YAML file of a directory; a domain defined twice is refused. */
  public static RlsConfig read(Path path) throws RlsConfigException {
    return read(path, false);
  }

  /** Reads a file, or every YAML file of a directory, merging the files of one domain when asked. */
  public static RlsConfig read(Path path, boolean mergeDomains) throws RlsConfigException {
    List<Path> files;
    if (Files.isDirectory(path)) {
      try (Stream<Path> listing = Files.list(path)) {
        files = listing.filter(RlsConfigReader::isConfigFile).sorted().toList();
      } catch (IOException e) {
        throw new RlsConfigException(List.of(path + ": cannot list the directory: " + e.getMessage()));
      }
    } else if (Files.isRegularFile(path)) {
      files = List.of(path);
    } else {
      throw new RlsConfigException(List.of(path + ": no such file or directory"));
    }
    Map<String, String> texts = new LinkedHashMap<>();
    for (Path file : files) {
      try {
        texts.put(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new RlsConfigException(List.of(file + ": cannot read it: " + e));
      }
    }
    return parse(texts, mergeDomains);
  }

  /** What {@link #read} looks at in a directory: the files a reload must notice. */
  public static boolean isConfigFile(Path file) {
    String name = file.getFileName().toString();
    return !name.startsWith(".") && (name.endsWith(".yaml") || name.endsWith(".yml")) && Files.isRegularFile(file);
  }

  /** Parses files' texts, by file name; every domain once. */
  public static RlsConfig parse(Map<String, String> texts) throws RlsConfigException {
    return parse(texts, false);
  }

  /** Parses files' texts, by file name, merging the files of one domain when asked. */
  public static RlsConfig parse(Map<String, String> texts, boolean mergeDomains) throws RlsConfigException {
    RlsConfigReader reader = new RlsConfigReader(mergeDomains);
    Map<String, DescriptorLevel> domains = new HashMap<>();
    Map<String, String> definedIn = new HashMap<>();
    for (Map.Entry<String, String> text : texts.entrySet()) {
      reader.readFile(text.getKey(), text.getValue(), domains, definedIn);
    }
    if (!reader.problems.isEmpty()) {
      throw new RlsConfigException(reader.problems.all());
    }
    return new RlsConfig(domains, List.copyOf(texts.keySet()));
  }

  /** Reads one file into {@code domains}. */
  private void readFile(String file, String text, Map<String, DescriptorLevel> domains, Map<String, String> definedIn) {
    problems.in(file, null);
    Node root;
    try (Reader in = new StringReader(text)) {
      root = new Yaml(new LoaderOptions()).compose(in);
    } catch (MarkedYAMLException e) {
      int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
      problems.inFile(":" + line, "not valid YAML: " + e.getProblem());
      return;
    } catch (YAMLException | IOException e) {
      problems.inFile("", "not valid YAML: " + e.getMessage());
      return;
    }
    if (root == null) {
      problems.inFile(":1", "the file is empty; it must define a domain and its descriptors");
      return;
    }
    PlainDocument document = YamlNodes.plain(root);
    problems.in(file, document);
    document.problems().forEach(problem -> problems.inFile("", problem));
    if (!(document.value() instanceof Map<?, ?> fields)) {
      problems.at("", "a config file is a mapping with domain: and descriptors:, found " + ConfigValues.describe(document.value()));
      return;
    }
    descriptors.unknownFields(fields, "", FILE_FIELDS);
    Object domain = fields.get("domain");
    if (!(domain instanceof String name) || name.isEmpty()) {
      problems.at("domain", "every file needs a domain: a non-empty name, found " + ConfigValues.describe(domain));
      return;
    }
    DescriptorLevel level = descriptors.readLevel(fields.get("descriptors"), "descriptors", "");
    String earlier = definedIn.putIfAbsent(name, file);
    if (earlier == null) {
      domains.put(name, level);
    } else if (!mergeDomains) {
      problems.at("domain", "domain '" + name + "' is also defined in " + earlier
          + " (a domain lives in one file, unless domains are merged: --rls-merge-domains)");
    } else {
      domains.put(name, merged(domains.get(name), level));
    }
  }

  /**
   * A domain's tree with another file's top level added, as MERGE_DOMAIN_CONFIG patches it. A
   * duplicate is reported at the later file's descriptor, counted among the ones that were read.
   */
  private DescriptorLevel merged(DescriptorLevel before, DescriptorLevel added) {
    List<DescriptorNode> nodes = new ArrayList<>(before.nodes());
    nodes.addAll(added.nodes());
    for (RlsConfigRules.Duplicate duplicate : RlsConfigRules.ofLevel(nodes)) {
      problems.at("descriptors", "descriptors[" + (duplicate.index() - before.nodes().size()) + "]: "
          + duplicate.message() + " in a file before (domains are merged)");
    }
    return new DescriptorLevel(nodes);
  }
}
