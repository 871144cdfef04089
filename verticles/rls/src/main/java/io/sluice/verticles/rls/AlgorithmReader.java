package io.sluice.verticles.rls;

import io.sluice.verticles.yaml.ConfigValues;
import io.sluice.verticles.yaml.DurationText;
import io.sluice.verticles.yaml.PlainDocument;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads Sluice's extension fields of a {@code rate_limit}: {@code algorithm} ({@code fixed_window},
 * the default, {@code sliding_window}, {@code token_bucket}, {@code leaky_bucket} or {@code gcra}),
 * {@code window} (the window, or what a bucket's rate refers to: whole seconds such as {@code 30s}
 * or {@code 15m}; default the unit) and {@code burst} (a bucket's capacity; default
 * {@code requests_per_unit}). {@code requests_per_unit} counts per {@code window}. Each problem goes
 * to the reader's list with the field it is at.
 */
final class AlgorithmReader {

  /** The fields this class reads, which a {@code rate_limit} may hold besides upstream's. */
  static final List<String> FIELDS = List.of("algorithm", "burst", "window");

  private static final long MAX_UINT32 = 0xFFFF_FFFFL;
  private static final String NAMES = Stream.concat(Stream.of(CountedWindow.NAME),
      Arrays.stream(StrategyAlgorithm.Kind.values()).map(StrategyAlgorithm.Kind::spelling)).collect(Collectors.joining(", "));

  private final Map<?, ?> fields;
  private final String path;
  private final BiConsumer<String, String> problems;
  private boolean failed;

  private AlgorithmReader(Map<?, ?> fields, String path, BiConsumer<String, String> problems) {
    this.fields = fields;
    this.path = path;
    this.problems = problems;
  }

  /**
   * The algorithm of a counted {@code rate_limit}, or null after reporting its problems.
   *
   * @param problems takes the path of a field and what is wrong with it
   */
  static Algorithm read(Map<?, ?> fields, String path, WindowUnit unit, long requests,
                        BiConsumer<String, String> problems) {
    return new AlgorithmReader(fields, path, problems).algorithm(unit, requests);
  }

  /** Reports each extension field of an unlimited {@code rate_limit}, which counts nothing. */
  static void refuseOnUnlimited(Map<?, ?> fields, String path, BiConsumer<String, String> problems) {
    for (String field : FIELDS) {
      if (fields.containsKey(field)) {
        problems.accept(PlainDocument.field(path, field), "an unlimited limit has no " + field);
      }
    }
  }

  private Algorithm algorithm(WindowUnit unit, long requests) {
    String name = text("algorithm");
    long windowSeconds = window(unit);
    Long burst = burst();
    if (name == null || name.equals(CountedWindow.NAME)) {
      if (burst != null) {
        problem("burst", "only token_bucket, leaky_bucket and gcra take a burst");
      }
      return failed ? null : new CountedWindow(windowSeconds, requests);
    }
    StrategyAlgorithm.Kind kind = StrategyAlgorithm.Kind.named(name).orElse(null);
    if (kind == null) {
      problem("algorithm", "must be one of " + NAMES + ", found '" + name + "'");
      return null;
    }
    if (burst != null && !kind.bucket()) {
      problem("burst", "only token_bucket, leaky_bucket and gcra take a burst");
    }
    if (requests == 0) {
      problem("requests_per_unit", "must be at least 1 with algorithm " + name
          + " (0 refuses everything: leave the algorithm out)");
    }
    if (failed) {
      return null;
    }
    try {
      return new StrategyAlgorithm(kind, requests, windowSeconds, burst == null ? requests : burst);
    } catch (IllegalArgumentException refused) {
      problem("algorithm", refused.getMessage());
      return null;
    }
  }

  private long window(WindowUnit unit) {
    String text = text("window");
    if (text == null) {
      return unit.seconds();
    }
    try {
      Duration window = DurationText.parse(text);
      if (window.getNano() == 0) {
        return window.getSeconds();
      }
      problem("window", "must be whole seconds (30s, 15m, 1h), found '" + text + "'");
    } catch (IllegalArgumentException bad) {
      problem("window", "must be " + DurationText.FORM + " of whole seconds, found '" + text + "'");
    }
    return unit.seconds();
  }

  private Long burst() {
    Object value = fields.get("burst");
    if (value == null) {
      return null;
    }
    try {
      long burst = value instanceof String digits ? Long.parseLong(digits.trim()) : -1;
      if (burst >= 1 && burst <= MAX_UINT32) {
        return burst;
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    problem("burst", "must be a whole number from 1 to " + MAX_UINT32 + ", found " + ConfigValues.describe(value));
    return null;
  }

  private String text(String field) {
    Object value = fields.get(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String text) || text.isBlank()) {
      problem(field, "must be a non-empty text, found " + ConfigValues.describe(value));
      return null;
    }
    return text.trim();
  }

  private void problem(String field, String message) {
    failed = true;
    problems.accept(PlainDocument.field(path, field), message);
  }
}
