package io.sluice.verticles.strategies.policy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.DecayPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.Composite;
import io.sluice.verticles.strategies.algorithm.DecayingRate;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.Gcra;
import io.sluice.verticles.strategies.algorithm.LeakyBucket;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import io.sluice.verticles.yaml.ConfigValues;

import io.sluice.verticles.yaml.DurationText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one policy from the plain values a config file holds: maps with string keys, lists, and
 * scalars as their exact text (numbers are parsed here, so {@code 0x10} or {@code 1e3} are refused
 * rather than reinterpreted). Every problem is reported, each naming the policy and the field:
 *
 * <pre>
 * per-key-5-per-10s:                  # the policy name
 *   strategy: fixed_window            # token_bucket, fixed_window, sliding_window, leaky_bucket, gcra, composite, decaying_rate
 *   limit: 5                          # fixed_window: limit + window, or quotas: [{name, limit, window}, …]; sliding_window: limit + window
 *   window: 10s                       # durations: 500ms, 10s, 5m, 1h, 1d
 *   key: param | header:X-Api-Key     # or a list of parts joined with ':'; default: param
 *   legacy-headers: false             # also X-RateLimit-Limit/Remaining/Reset
 *   shadow: false                     # true: count and report denials, but allow every request
 *   on-full: allow                    # or deny: the answer when a full store (--eviction reject) refuses a new key
 * </pre>
 *
 * Buckets (token_bucket, leaky_bucket, gcra) take {@code burst} and {@code rate} (per second); a
 * composite takes {@code primary} (a fixed window) and {@code secondary} (a bucket with its
 * {@code strategy}); a decaying_rate takes {@code limit}, {@code period} and {@code strict}.
 */
public final class PolicyParser {

  private static final Pattern POSITIVE_INTEGER = Pattern.compile("[0-9]{1,19}");
  private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?|\\.[0-9]+");
  private static final List<String> BUCKETS = List.of(TokenBucket.NAME, LeakyBucket.NAME, Gcra.NAME);
  private static final List<String> STRATEGIES = List.of(TokenBucket.NAME, FixedWindow.NAME, LeakyBucket.NAME,
      Gcra.NAME, Composite.NAME, DecayingRate.NAME, SlidingWindow.NAME);

  private final String policyName;
  private final List<String> problems;
  private int problemsAtStart;

  private PolicyParser(String policyName, List<String> problems) {
    this.policyName = policyName;
    this.problems = problems;
  }

  /**
   * @param name     the policy's name (its key in the {@code policies} mapping)
   * @param spec     its definition: a map of field name to value
   * @param problems receives every problem, each starting {@code policy 'NAME': }
   * @return the policy, or null when a problem was found
   */
  public static Policy parse(String name, Object spec, List<String> problems) {
    return new PolicyParser(name, problems).policy(spec);
  }

  private Policy policy(Object spec) {
    problemsAtStart = problems.size();
    if (!Policy.isValidName(policyName)) {
      problem("the name must be 1 to 64 characters of [A-Za-z0-9_.-] (it appears in URLs, headers and record keys)");
    }
    Fields fields = fields("", spec);
    if (fields == null) {
      return null;
    }
    String strategyName = fields.text("strategy", true);
    KeyExtractor key = key(fields);
    boolean legacyHeaders = Boolean.TRUE.equals(fields.bool("legacy-headers"));
    boolean shadow = Boolean.TRUE.equals(fields.bool("shadow"));
    OnFull onFull = onFull(fields);
    Strategy strategy = null;
    if (strategyName != null) {
      strategy = strategy(strategyName, fields, "");
    }
    if (strategyName != null && STRATEGIES.contains(strategyName)) {
      // With an unknown strategy its fields are unknown too: one message about the strategy is enough.
      fields.rejectUnknown(strategyName + " policy");
    }
    if (problems.size() > problemsAtStart || strategy == null) {
      return null;
    }
    try {
      return new Policy(policyName, strategy, key, legacyHeaders, shadow, onFull);
    } catch (IllegalArgumentException e) {
      problem(e.getMessage());
      return null;
    }
  }

  private OnFull onFull(Fields fields) {
    String text = fields.text("on-full", false);
    if (text == null) {
      return OnFull.ALLOW;
    }
    OnFull onFull = OnFull.parse(text);
    if (onFull == null) {
      problem("'on-full' must be allow or deny, was '" + text + "'");
    }
    return onFull;
  }

  private Strategy strategy(String name, Fields fields, String where) {
    try {
      switch (name) {
        case FixedWindow.NAME:
          return fixedWindow(fields, where);
        case TokenBucket.NAME:
          return orNull(bucket(fields, where), TokenBucket::new);
        case LeakyBucket.NAME:
          return orNull(bucket(fields, where), LeakyBucket::new);
        case Gcra.NAME:
          return orNull(bucket(fields, where), Gcra::new);
        case Composite.NAME:
          return composite(fields, where);
        case DecayingRate.NAME:
          return decayingRate(fields, where);
        case SlidingWindow.NAME:
          return orNull(singleQuota(fields), SlidingWindow::new);
        default:
          problem("'" + where + "strategy' must be one of " + String.join(", ", STRATEGIES) + ", was '" + name + "'");
          return null;
      }
    } catch (IllegalArgumentException invalid) {
      // The strategies' own validation: equal-rate quotas, a GCRA rate beyond 1e9/s, …
      problem((where.isEmpty() ? "" : "'" + where.substring(0, where.length() - 1) + "': ") + invalid.getMessage());
      return null;
    }
  }

  private static <P> Strategy orNull(P policy, Function<P, Strategy> create) {
    return policy == null ? null : create.apply(policy);
  }

  private FixedWindow fixedWindow(Fields fields, String where) {
    boolean hasLimit = fields.has("limit");
    boolean single = fields.has("window") || hasLimit;
    if (fields.has("quotas")) {
      if (single) {
        problem("'" + where + "quotas' and '" + where + "limit'/'" + where + "window' exclude each other: "
            + "one quota is limit + window, several are a quotas list");
        return null;
      }
      List<Quota> quotas = new ArrayList<>();
      List<?> items = fields.list("quotas");
      if (items == null) {
        return null;
      }
      if (items.isEmpty()) {
        problem("'" + where + "quotas' must list at least one {name, limit, window}");
        return null;
      }
      for (int i = 0; i < items.size(); i++) {
        String at = where + "quotas[" + i + "].";
        Fields quota = fields(at, items.get(i));
        if (quota == null) {
          continue;
        }
        String quotaName = quota.text("name", true);
        Long limit = quota.positiveInteger("limit");
        Duration window = quota.duration("window");
        quota.rejectUnknown("quota");
        if (quotaName != null && limit != null && window != null) {
          try {
            quotas.add(new Quota(quotaName, limit, window));
          } catch (IllegalArgumentException e) {
            problem("'" + at + "name': " + e.getMessage());
          }
        }
      }
      return quotas.size() == items.size() ? new FixedWindow(new WindowPolicy(quotas)) : null;
    }
    Quota quota = singleQuota(fields);
    return quota == null ? null : new FixedWindow(WindowPolicy.of(quota));
  }

  /** {@code limit} requests per {@code window}, the {@code default} quota. */
  private Quota singleQuota(Fields fields) {
    Long limit = fields.positiveInteger("limit");
    Duration window = fields.duration("window");
    return limit == null || window == null ? null : new Quota(Result.DEFAULT, limit, window);
  }

  private BucketPolicy bucket(Fields fields, String where) {
    Long burst = fields.positiveInteger("burst");
    Double rate = fields.positiveDecimal("rate", "requests per second");
    return burst == null || rate == null ? null : new BucketPolicy(burst, rate);
  }

  private Composite composite(Fields fields, String where) {
    Strategy primary = null;
    Fields primaryFields = fields.section("primary");
    if (primaryFields != null) {
      String declared = primaryFields.text("strategy", false);
      if (declared != null && !declared.equals(FixedWindow.NAME)) {
        problem("'" + where + "primary.strategy' must be fixed_window (the only primary a composite takes), was '"
            + declared + "'");
      } else {
        primary = strategy(FixedWindow.NAME, primaryFields, where + "primary.");
        primaryFields.rejectUnknown("composite primary (a fixed_window)");
      }
    }
    Strategy secondary = null;
    Fields secondaryFields = fields.section("secondary");
    if (secondaryFields != null) {
      String declared = secondaryFields.text("strategy", true);
      if (declared != null && !BUCKETS.contains(declared)) {
        problem("'" + where + "secondary.strategy' must be one of " + String.join(", ", BUCKETS) + ", was '"
            + declared + "'");
      } else if (declared != null) {
        secondary = strategy(declared, secondaryFields, where + "secondary.");
        secondaryFields.rejectUnknown("composite secondary");
      }
    }
    return primary instanceof FixedWindow window && secondary != null ? new Composite(window, secondary) : null;
  }

  private DecayingRate decayingRate(Fields fields, String where) {
    Double limit = fields.positiveDecimal("limit", "events per period");
    Duration period = fields.duration("period");
    Boolean strict = fields.bool("strict");
    return limit == null || period == null ? null
        : new DecayingRate(new DecayPolicy(limit, period, Boolean.TRUE.equals(strict)));
  }

  private KeyExtractor key(Fields fields) {
    Object value = fields.raw("key");
    if (value == null) {
      return KeyExtractor.PARAM;
    }
    List<String> parts = new ArrayList<>();
    if (value instanceof List<?> list) {
      for (Object part : list) {
        if (!(part instanceof String text)) {
          problem("'key' parts must be text such as header:X-Api-Key, found " + ConfigValues.describe(part));
          return KeyExtractor.PARAM;
        }
        parts.add(text);
      }
      if (parts.isEmpty()) {
        problem("'key' must name at least one part");
        return KeyExtractor.PARAM;
      }
    } else if (value instanceof String text) {
      parts.add(text);
    } else {
      problem("'key' must be a source (param | header:X-Api-Key) or a list of them, found " + ConfigValues.describe(value));
      return KeyExtractor.PARAM;
    }
    try {
      return KeyExtractor.of(parts);
    } catch (IllegalArgumentException e) {
      problem("'key': " + e.getMessage());
      return KeyExtractor.PARAM;
    }
  }

  private Fields fields(String where, Object spec) {
    if (!(spec instanceof Map<?, ?> map)) {
      problem((where.isEmpty() ? "the definition" : "'" + where.substring(0, where.length() - 1) + "'")
          + " must be a mapping of fields, found " + ConfigValues.describe(spec));
      return null;
    }
    return new Fields(where, map);
  }

  private void problem(String message) {
    problems.add("policy '" + policyName + "': " + message);
  }

  /** The fields of one mapping, remembering which were read so that the rest can be refused. */
  private final class Fields {
    private final String where;
    private final Map<?, ?> values;
    private final Set<String> known = new LinkedHashSet<>();

    Fields(String where, Map<?, ?> values) {
      this.where = where;
      this.values = values;
    }

    boolean has(String field) {
      known.add(field);
      return values.get(field) != null;
    }

    Object raw(String field) {
      known.add(field);
      return values.get(field);
    }

    Fields section(String field) {
      Object value = raw(field);
      if (value == null) {
        problem("'" + where + field + "' is required");
        return null;
      }
      return fields(where + field + ".", value);
    }

    List<?> list(String field) {
      Object value = raw(field);
      if (!(value instanceof List<?> list)) {
        problem("'" + where + field + "' must be a list, found " + ConfigValues.describe(value));
        return null;
      }
      return list;
    }

    String text(String field, boolean required) {
      Object value = raw(field);
      if (value == null) {
        if (required) {
          problem("'" + where + field + "' is required");
        }
        return null;
      }
      if (value instanceof Map || value instanceof List) {
        problem("'" + where + field + "' takes a single value, found " + ConfigValues.describe(value));
        return null;
      }
      return value.toString().trim();
    }

    Long positiveInteger(String field) {
      String text = text(field, true);
      if (text == null) {
        return null;
      }
      if (POSITIVE_INTEGER.matcher(text).matches()) {
        try {
          long value = Long.parseLong(text);
          if (value > 0) {
            return value;
          }
        } catch (NumberFormatException tooLarge) {
          // reported below
        }
      }
      problem("'" + where + field + "' must be a whole number from 1 to " + Long.MAX_VALUE + ", was '" + text + "'");
      return null;
    }

    Double positiveDecimal(String field, String unit) {
      String text = text(field, true);
      if (text == null) {
        return null;
      }
      if (DECIMAL.matcher(text).matches()) {
        double value = Double.parseDouble(text);
        if (value > 0 && Double.isFinite(value)) {
          return value;
        }
      }
      problem("'" + where + field + "' must be a number above 0 (" + unit + "), such as 5 or 0.5, was '" + text + "'");
      return null;
    }

    Duration duration(String field) {
      String text = text(field, true);
      if (text == null) {
        return null;
      }
      try {
        return DurationText.parse(text);
      } catch (IllegalArgumentException bad) {
        problem("'" + where + field + "' " + bad.getMessage() + ", was '" + text + "'");
        return null;
      }
    }

    Boolean bool(String field) {
      String text = text(field, false);
      if (text == null) {
        return null;
      }
      if (text.equals("true") || text.equals("false")) {
        return Boolean.valueOf(text);
      }
      problem("'" + where + field + "' must be true or false, was '" + text + "'");
      return null;
    }

    void rejectUnknown(String kind) {
      for (Object field : values.keySet()) {
        if (!known.contains(String.valueOf(field))) {
          problem("unknown field '" + where + field + "' for a " + kind + " (fields: " + String.join(", ", known) + ")");
        }
      }
    }
  }
}
