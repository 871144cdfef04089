package io.sluice.verticles.yaml;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The wording config readers use for a value in their problem reports, so that every file Sluice
 * reads (the options file, check API policies, UDP rules) says "found a list" the same way.
 */
public final class ConfigValues {

  private ConfigValues() {
  }

  /**
   * What a plain config value is, for a message such as {@code 'limit' must be a number, got }
   * + this: {@code nothing} (null), {@code a mapping}, {@code a list}, {@code the string "ten"}
   * (quoted, so that a number written as text is told apart), or the type and value of anything
   * else ({@code integer 5}, {@code boolean true}).
   */
  public static String describe(Object value) {
    if (value == null) {
      return "nothing";
    }
    if (value instanceof Map) {
      return "a mapping";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof String) {
      return "the string \"" + value + "\"";
    }
    return value.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + value;
  }
}
