package io.sluice.protocol.udp.rulefile;

import io.sluice.protocol.udp.rules.FixedReply;
import io.sluice.protocol.udp.rules.KeyPattern;
import io.sluice.protocol.udp.rules.KeyRewrite;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleAlgorithm;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.protocol.udp.rules.StatsOnlyHook;
import io.sluice.verticles.yaml.ConfigValues;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.PatternSyntaxException;

/**
 * Sluice's rule-table format (YAML, {@code deploy/rules/musicbrainz.yaml}) into the protocol's
 * {@link RuleSet}: reads plain Java values, collecting every problem with its location.
 */
public final class RuleSetReader {

  private static final String STATS_ONLY = "stats-only";
  private static final String REWRITES = "rewrites";
  private static final String RULES = "rules";
  private static final String DEFAULT = "default";

  private static final String PATTERN = "pattern";
  private static final String REPLACEMENT = "replacement";
  private static final String WHOLE_KEY = "whole-key";
  private static final String UNLESS = "unless";
  private static final String STATS_KEY = "stats-key";
  private static final String LOWERCASE = "lowercase";
  private static final String LIMIT = "limit";
  private static final String PERIOD = "period";
  private static final String STRICT = "strict";
  private static final String KEEP_STATS = "keep-stats";
  private static final String FIXED_REPLY = "fixed-reply";
  private static final String SUBSTITUTE_KEY = "substitute-key";
  private static final String OVER = "over";
  private static final String RATE = "rate";
  private static final String ALGORITHM = "algorithm";

  private static final List<String> TABLE_FIELDS = List.of(STATS_ONLY, REWRITES, RULES, DEFAULT);
  private static final List<String> HOOK_FIELDS = List.of(PATTERN, STATS_KEY, LOWERCASE);
  private static final List<String> REWRITE_FIELDS = List.of(PATTERN, REPLACEMENT, WHOLE_KEY, UNLESS);
  private static final List<String> RULE_FIELDS =
      List.of(PATTERN, LIMIT, PERIOD, STRICT, KEEP_STATS, FIXED_REPLY, SUBSTITUTE_KEY, ALGORITHM);
  private static final List<String> DEFAULT_RULE_FIELDS =
      List.of(LIMIT, PERIOD, STRICT, KEEP_STATS, FIXED_REPLY, SUBSTITUTE_KEY, ALGORITHM);
  private static final List<String> FIXED_REPLY_FIELDS = List.of(OVER, RATE);

  private final List<String> problems = new ArrayList<>();

  private RuleSetReader() {
  }

  /**
   * Reads a rule table from plain Java values, as a YAML or JSON parser produces them (maps, lists,
   * strings, numbers, booleans). The format is documented in {@code deploy/rules/musicbrainz.yaml}:
   *
   * <pre>
   * stats-only: [ {pattern, stats-key?, lowercase?} … ]
   * rewrites:   [ {pattern, replacement, whole-key?, unless?} … ]
   * rules:      [ {pattern, limit, period, strict?, keep-stats?, fixed-reply?: {over, rate?}, substitute-key?,
   *                algorithm?: decaying-rate | sliding-window} … ]
   * default:    {limit, period, strict?, keep-stats?, fixed-reply?, substitute-key?, algorithm?}
   * </pre>
   *
   * <p>Every section is optional; without {@code default} the original's default applies
   * ({@link Rule#allowAllDefault()}). Unknown fields are errors.
   *
   * @throws RuleConfigException listing every problem, each naming the section, index and field
   */
  public static RuleSet read(Map<String, ?> table) throws RuleConfigException {
    RuleSetReader reader = new RuleSetReader();
    RuleSet ruleSet = reader.readTable(table);
    if (!reader.problems.isEmpty()) {
      throw new RuleConfigException(reader.problems);
    }
    return ruleSet;
  }

  private RuleSet readTable(Map<String, ?> table) {
    if (table == null) {
      return RuleSet.allowAll();
    }
    checkFields(table, "the table", TABLE_FIELDS);
    List<StatsOnlyHook> hooks = new ArrayList<>();
    forEachEntry(table.get(STATS_ONLY), STATS_ONLY, (entry, where) -> {
      StatsOnlyHook hook = readHook(entry, where);
      if (hook != null) {
        hooks.add(hook);
      }
    });
    List<KeyRewrite> rewrites = new ArrayList<>();
    forEachEntry(table.get(REWRITES), REWRITES, (entry, where) -> {
      KeyRewrite rewrite = readRewrite(entry, where);
      if (rewrite != null) {
        rewrites.add(rewrite);
      }
    });
    List<Rule> rules = new ArrayList<>();
    forEachEntry(table.get(RULES), RULES, (entry, where) -> {
      Rule rule = readRule(entry, where, true);
      if (rule != null) {
        rules.add(rule);
      }
    });
    Rule defaultRule = Rule.allowAllDefault();
    Object defaultEntry = table.get(DEFAULT);
    if (defaultEntry != null) {
      Map<String, ?> fields = asMap(defaultEntry, DEFAULT);
      defaultRule = fields == null ? null : readRule(fields, DEFAULT, false);
    }
    if (!problems.isEmpty()) {
      return null;
    }
    return new RuleSet(hooks, rewrites, rules, defaultRule);
  }

  @FunctionalInterface
  private interface EntryReader {
    void read(Map<String, ?> entry, String where);
  }

  private void forEachEntry(Object section, String name, EntryReader reader) {
    if (section == null) {
      return;
    }
    if (!(section instanceof List<?> entries)) {
      problems.add(name + ": must be a list, got " + ConfigValues.describe(section));
      return;
    }
    for (int i = 0; i < entries.size(); i++) {
      String where = name + "[" + i + "]";
      Map<String, ?> entry = asMap(entries.get(i), where);
      if (entry != null) {
        reader.read(entry, where);
      }
    }
  }

  private StatsOnlyHook readHook(Map<String, ?> entry, String where) {
    checkFields(entry, where, HOOK_FIELDS);
    KeyPattern pattern = requiredPattern(entry, where, PATTERN);
    String statsKey = optionalString(entry, where, STATS_KEY);
    boolean lowercase = optionalBoolean(entry, where, LOWERCASE, false);
    if (pattern == null) {
      return null;
    }
    return construct(where, STATS_KEY, () -> new StatsOnlyHook(pattern, statsKey, lowercase));
  }

  private KeyRewrite readRewrite(Map<String, ?> entry, String where) {
    checkFields(entry, where, REWRITE_FIELDS);
    KeyPattern pattern = requiredPattern(entry, where, PATTERN);
    String replacement = requiredString(entry, where, REPLACEMENT);
    boolean wholeKey = optionalBoolean(entry, where, WHOLE_KEY, false);
    KeyPattern unless = entry.get(UNLESS) == null ? null : requiredPattern(entry, where, UNLESS);
    if (pattern == null || replacement == null) {
      return null;
    }
    return construct(where, REPLACEMENT, () -> new KeyRewrite(pattern, replacement, wholeKey, unless));
  }

  private Rule readRule(Map<String, ?> entry, String where, boolean withPattern) {
    checkFields(entry, where, withPattern ? RULE_FIELDS : DEFAULT_RULE_FIELDS);
    KeyPattern pattern = withPattern ? requiredPattern(entry, where, PATTERN) : null;
    Double limit = requiredNumber(entry, where, LIMIT);
    if (limit != null && !(limit >= 0)) {
      problems.add(where + "." + LIMIT + ": must be at least 0, got " + entry.get(LIMIT));
      limit = null;
    }
    Double period = requiredNumber(entry, where, PERIOD);
    if (period != null && !(period > 0)) {
      problems.add(where + "." + PERIOD + ": must be greater than 0 seconds, got " + entry.get(PERIOD));
      period = null;
    }
    boolean strict = optionalBoolean(entry, where, STRICT, false);
    boolean keepStats = optionalBoolean(entry, where, KEEP_STATS, false);
    String substituteKey = optionalString(entry, where, SUBSTITUTE_KEY);
    FixedReply fixedReply = null;
    boolean fixedReplyValid = true;
    if (entry.get(FIXED_REPLY) != null) {
      fixedReply = readFixedReply(entry.get(FIXED_REPLY), where + "." + FIXED_REPLY);
      fixedReplyValid = fixedReply != null;
    }
    RuleAlgorithm algorithm = readAlgorithm(entry, where);
    if ((withPattern && pattern == null) || limit == null || period == null || !fixedReplyValid || algorithm == null) {
      return null;
    }
    double checkedLimit = limit;
    double checkedPeriod = period;
    String substitute = substituteKey;
    FixedReply reply = fixedReply;
    return construct(where, ALGORITHM, () -> new Rule(pattern, checkedLimit, checkedPeriod, strict, keepStats, reply,
        substitute, algorithm));
  }

  private RuleAlgorithm readAlgorithm(Map<String, ?> entry, String where) {
    if (entry.get(ALGORITHM) == null) {
      return RuleAlgorithm.DECAYING_RATE;
    }
    String spelling = asString(entry.get(ALGORITHM), where, ALGORITHM);
    if (spelling == null) {
      return null;
    }
    RuleAlgorithm algorithm = RuleAlgorithm.named(spelling);
    if (algorithm == null) {
      List<String> known = new ArrayList<>();
      for (RuleAlgorithm each : RuleAlgorithm.values()) {
        known.add(each.spelling());
      }
      problems.add(where + "." + ALGORITHM + ": unknown algorithm '" + spelling + "' (known: "
          + String.join(", ", known) + ")");
    }
    return algorithm;
  }

  private FixedReply readFixedReply(Object value, String where) {
    Map<String, ?> fields = asMap(value, where);
    if (fields == null) {
      return null;
    }
    checkFields(fields, where, FIXED_REPLY_FIELDS);
    Boolean over = requiredBoolean(fields, where, OVER);
    Double rate = fields.get(RATE) == null ? Double.valueOf(0) : requiredNumber(fields, where, RATE);
    if (rate != null && !(rate >= 0)) {
      problems.add(where + "." + RATE + ": must be at least 0, got " + fields.get(RATE));
      rate = null;
    }
    if (over == null || rate == null) {
      return null;
    }
    return new FixedReply(over, rate);
  }

  private <T> T construct(String where, String field, Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (IllegalArgumentException invalid) {
      problems.add(where + "." + field + ": " + invalid.getMessage());
      return null;
    }
  }

  private void checkFields(Map<String, ?> entry, String where, List<String> known) {
    Set<String> names = entry.keySet();
    for (Object name : names) {
      if (!known.contains(String.valueOf(name))) {
        problems.add(where + ": unknown field '" + name + "' (known: " + String.join(", ", known) + ")");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, ?> asMap(Object value, String where) {
    if (value instanceof Map) {
      return (Map<String, ?>) value;
    }
    problems.add(where + ": must be a mapping of fields, got " + ConfigValues.describe(value));
    return null;
  }

  private KeyPattern requiredPattern(Map<String, ?> entry, String where, String field) {
    String regex = requiredString(entry, where, field);
    if (regex == null) {
      return null;
    }
    try {
      return KeyPattern.compile(regex);
    } catch (PatternSyntaxException invalid) {
      problems.add(where + "." + field + ": invalid regular expression " + regex + ": "
          + invalid.getDescription() + " near index " + invalid.getIndex());
      return null;
    }
  }

  private String requiredString(Map<String, ?> entry, String where, String field) {
    Object value = entry.get(field);
    if (value == null) {
      problems.add(where + "." + field + ": missing");
      return null;
    }
    return asString(value, where, field);
  }

  private String optionalString(Map<String, ?> entry, String where, String field) {
    Object value = entry.get(field);
    return value == null ? null : asString(value, where, field);
  }

  private String asString(Object value, String where, String field) {
    if (value instanceof String text) {
      return text;
    }
    problems.add(where + "." + field + ": must be a string, got " + ConfigValues.describe(value) + " (quote it)");
    return null;
  }

  private Double requiredNumber(Map<String, ?> entry, String where, String field) {
    Object value = entry.get(field);
    if (value == null) {
      problems.add(where + "." + field + ": missing");
      return null;
    }
    if (!(value instanceof Number given)) {
      problems.add(where + "." + field + ": must be a number, got " + ConfigValues.describe(value));
      return null;
    }
    double number = given.doubleValue();
    if (!Double.isFinite(number)) {
      problems.add(where + "." + field + ": must be a finite number, got " + value);
      return null;
    }
    return number;
  }

  private Boolean requiredBoolean(Map<String, ?> entry, String where, String field) {
    Object value = entry.get(field);
    if (value == null) {
      problems.add(where + "." + field + ": missing");
      return null;
    }
    return asBoolean(value, where, field);
  }

  private boolean optionalBoolean(Map<String, ?> entry, String where, String field, boolean absent) {
    Object value = entry.get(field);
    if (value == null) {
      return absent;
    }
    Boolean flag = asBoolean(value, where, field);
    return flag == null ? absent : flag;
  }

  private Boolean asBoolean(Object value, String where, String field) {
    if (value instanceof Boolean flag) {
      return flag;
    }
    problems.add(where + "." + field + ": must be true or false, got " + ConfigValues.describe(value));
    return null;
  }
}
