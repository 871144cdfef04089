package io.sluice.verticles.rls;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.sluice.verticles.yaml.ConfigValues;
import io.sluice.verticles.yaml.PlainDocument;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the {@code descriptors:} of one config file (its YAML already made plain) into the model:
 * every field of envoyproxy/ratelimit's format, each read as upstream reads it, and every problem
 * reported with its field. What a tree must satisfy whatever its source is checked by
 * {@link RlsConfigRules}; this class only turns YAML into nodes. A new {@code rate_limit} field is
 * one more name in {@link #LIMIT_FIELDS} and one more read in {@link #readLimit}; Sluice's own
 * {@code algorithm}, {@code burst} and {@code window} are {@link AlgorithmReader}'s.
 */
final class DescriptorReader {

  static final List<String> DESCRIPTOR_FIELDS = List.of("key", "value", "rate_limit", "shadow_mode", "quota_mode",
      "detailed_metric", "value_to_metric", "share_threshold", "metadata", "descriptors");
  static final List<String> LIMIT_FIELDS = Stream.concat(
      Stream.of("unit", "requests_per_unit", "name", "replaces", "unlimited"), AlgorithmReader.FIELDS.stream()).toList();
  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  private static final String UNITS = Arrays.stream(WindowUnit.values())
      .map(unit -> unit.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));

  private final LocatedProblems problems;

  DescriptorReader(LocatedProblems problems) {
    this.problems = problems;
  }

  /** A level of descriptors at {@code path}; {@code parentStatKey} is the path of statistics above it. */
  DescriptorLevel readLevel(Object value, String path, String parentStatKey) {
    if (value == null) {
      return DescriptorLevel.EMPTY;
    }
    if (!(value instanceof List<?> items)) {
      problems.at(path, "must be a list of descriptors, found " + ConfigValues.describe(value));
      return DescriptorLevel.EMPTY;
    }
    List<DescriptorNode> nodes = new ArrayList<>();
    List<Integer> itemIndexes = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      DescriptorNode node = readDescriptor(items.get(i), PlainDocument.item(path, i), parentStatKey);
      if (node != null) {
        nodes.add(node);
        itemIndexes.add(i);
      }
    }
    for (RlsConfigRules.Duplicate duplicate : RlsConfigRules.ofLevel(nodes)) {
      problems.at(PlainDocument.item(path, itemIndexes.get(duplicate.index())), duplicate.message());
    }
    return new DescriptorLevel(nodes);
  }

  /** Reports problems the rules found, each at its field under {@code path}. */
  private void report(String path, List<RlsConfigRules.Problem> found) {
    for (RlsConfigRules.Problem problem : found) {
      problems.at(PlainDocument.field(path, problem.field()), problem.message());
    }
  }

  private DescriptorNode readDescriptor(Object value, String path, String parentStatKey) {
    if (!(value instanceof Map<?, ?> fields)) {
      problems.at(path, "a descriptor is a mapping with key:, found " + ConfigValues.describe(value));
      return null;
    }
    unknownFields(fields, path, DESCRIPTOR_FIELDS);
    String key = text(fields, path, "key", true);
    String entryValue = text(fields, path, "value", false);
    if (key == null) {
      return null;
    }
    if (entryValue != null && entryValue.isEmpty()) {
      entryValue = null; // upstream reads an empty value as none: the node matches the key alone
    }
    String statPart = entryValue == null ? key : key + '_' + entryValue;
    String statKey = parentStatKey.isEmpty() ? statPart : parentStatKey + '.' + statPart;
    boolean shadow = flag(fields, path, "shadow_mode");
    boolean quota = flag(fields, path, "quota_mode");
    boolean detailed = flag(fields, path, "detailed_metric");
    RateLimit limit = readLimit(fields.get("rate_limit"), PlainDocument.field(path, "rate_limit"),
        RateLimit.configured("", 0, null, false, List.of(), shadow, quota, statKey, detailed, null));
    Struct metadata = metadata(fields.get("metadata"), PlainDocument.field(path, "metadata"));
    if (limit != null && metadata.getFieldsCount() > 0) {
      limit = limit.withMetadata(metadata);
    }
    DescriptorLevel children = readLevel(fields.get("descriptors"), PlainDocument.field(path, "descriptors"), statKey);
    DescriptorNode node = new DescriptorNode(key, entryValue, limit, children, flag(fields, path, "value_to_metric"),
        flag(fields, path, "share_threshold"), metadata);
    report(path, RlsConfigRules.ofDescriptor(node));
    return node;
  }

  /** The {@code rate_limit} at {@code path}, with the descriptor's modes taken from {@code modes}. */
  private RateLimit readLimit(Object value, String path, RateLimit modes) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> fields)) {
      problems.at(path, "must be a mapping with unit: and requests_per_unit:, found " + ConfigValues.describe(value));
      return null;
    }
    unknownFields(fields, path, LIMIT_FIELDS);
    boolean unlimited = flag(fields, path, "unlimited");
    String name = text(fields, path, "name", false);
    List<String> replaces = readReplaces(fields.get("replaces"), PlainDocument.field(path, "replaces"));
    WindowUnit unit = null;
    if (unlimited) {
      if (fields.get("unit") != null) {
        problems.at(PlainDocument.field(path, "unit"), "an unlimited limit has no unit");
      }
      AlgorithmReader.refuseOnUnlimited(fields, path, problems::at);
    } else {
      String unitText = text(fields, path, "unit", true);
      if (unitText != null) {
        unit = WindowUnit.named(unitText).orElse(null);
        if (unit == null) {
          problems.at(PlainDocument.field(path, "unit"), "must be one of " + UNITS + ", found '" + unitText + "'");
        }
      }
    }
    // As upstream: a missing requests_per_unit is 0, and an unlimited limit ignores it.
    Long requests = requests(fields, path);
    if ((unit == null && !unlimited) || requests == null) {
      return null;
    }
    Algorithm algorithm = unlimited ? null : AlgorithmReader.read(fields, path, unit, requests, problems::at);
    if (!unlimited && algorithm == null) {
      return null;
    }
    return RateLimit.configured(name == null ? "" : name, unlimited ? 0 : requests, unit, unlimited, replaces,
        modes.shadowMode(), modes.quotaMode(), modes.statKey(), modes.detailedMetric(), algorithm);
  }

  private Long requests(Map<?, ?> fields, String path) {
    Object value = fields.get("requests_per_unit");
    if (value == null) {
      return 0L;
    }
    try {
      long requests = value instanceof String digits ? Long.parseLong(digits.trim()) : -1;
      if (requests >= 0 && requests <= MAX_UINT32) {
        return requests;
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    problems.at(PlainDocument.field(path, "requests_per_unit"), "must be a whole number from 0 to " + MAX_UINT32
        + ", found " + ConfigValues.describe(value));
    return null;
  }

  private List<String> readReplaces(Object value, String path) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> items)) {
      problems.at(path, "must be a list of {name: …}, found " + ConfigValues.describe(value));
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String at = PlainDocument.item(path, i);
      if (!(items.get(i) instanceof Map<?, ?> fields)) {
        problems.at(at, "must be a mapping {name: …}, found " + ConfigValues.describe(items.get(i)));
        continue;
      }
      unknownFields(fields, at, List.of("name"));
      Object name = fields.get("name");
      if (name != null && !(name instanceof String)) {
        problems.at(PlainDocument.field(at, "name"), "must be a text, found " + ConfigValues.describe(name));
        continue;
      }
      names.add(name == null ? "" : (String) name); // an empty name is the rules' to refuse
    }
    return names;
  }

  /**
   * {@code metadata}: any mapping, kept as a protobuf Struct. Its scalars are text, as the project's
   * YAML reader gives them (upstream sends YAML's numbers and booleans as such).
   */
  private Struct metadata(Object value, String path) {
    if (value == null) {
      return Struct.getDefaultInstance();
    }
    if (!(value instanceof Map<?, ?>)) {
      problems.at(path, "must be a mapping, found " + ConfigValues.describe(value));
      return Struct.getDefaultInstance();
    }
    return toValue(value).getStructValue();
  }

  private static Value toValue(Object value) {
    if (value instanceof Map<?, ?> fields) {
      Struct.Builder struct = Struct.newBuilder();
      fields.forEach((field, item) -> struct.putFields((String) field, toValue(item)));
      return Value.newBuilder().setStructValue(struct).build();
    }
    if (value instanceof List<?> items) {
      ListValue.Builder list = ListValue.newBuilder();
      items.forEach(item -> list.addValues(toValue(item)));
      return Value.newBuilder().setListValue(list).build();
    }
    return value == null ? Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build()
        : Value.newBuilder().setStringValue(value.toString()).build();
  }

  private String text(Map<?, ?> fields, String path, String field, boolean required) {
    Object value = fields.get(field);
    if (value == null) {
      if (required) {
        problems.at(fields.containsKey(field) ? PlainDocument.field(path, field) : path, field + " is required");
      }
      return null;
    }
    if (!(value instanceof String text) || (required && text.isEmpty())) {
      problems.at(PlainDocument.field(path, field), "must be a non-empty text, found " + ConfigValues.describe(value));
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
    problems.at(PlainDocument.field(path, field), "must be true or false, found " + ConfigValues.describe(value));
    return false;
  }

  void unknownFields(Map<?, ?> fields, String path, List<String> known) {
    for (Object field : fields.keySet()) {
      if (!known.contains(field)) {
        problems.at(PlainDocument.field(path, (String) field), "unknown field (known here: " + String.join(", ", known) + ")");
      }
    }
  }
}
