package io.sluice.verticles.benchmarks.load;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} / {@code --name=value} arguments of the bench commands. */
final class Arguments {

  private Arguments() {
  }

  /** The named values, or null when {@code --help} was asked for. */
  static Map<String, String> parse(List<String> args, List<String> known) {
    return parse(args, known, List.of());
  }

  /** The same, with {@code flags}: options that take no value, "true" when given. */
  static Map<String, String> parse(List<String> args, List<String> known, List<String> flags) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      String name = arg.substring(2);
      String value;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      } else if (name.equals("help")) {
        return null;
      } else if (flags.contains(name)) {
        values.put(name, "true");
        continue;
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name);
      }
      values.put(name, value);
    }
    return values;
  }

  static int positive(Map<String, String> values, String name, int fallback) {
    int value = nonNegative(values, name, fallback);
    if (value < 1) {
      throw new IllegalArgumentException("--" + name + " must be at least 1");
    }
    return value;
  }

  static int nonNegative(Map<String, String> values, String name, int fallback) {
    String text = values.get(name);
    if (text == null) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(text.trim());
      if (value < 0) {
        throw new IllegalArgumentException("--" + name + " must not be negative");
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " takes a whole number, not '" + text + "'");
    }
  }
}
