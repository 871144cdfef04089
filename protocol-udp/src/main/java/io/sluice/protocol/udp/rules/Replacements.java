package io.sluice.protocol.udp.rules;

import java.util.regex.Matcher;

/**
 * Replacement templates in {@link Matcher#appendReplacement} syntax: {@code $1} … for groups,
 * {@code \$} and {@code \\} for literal characters.
 */
final class Replacements {

  private Replacements() {
  }

  /**
   * @return {@code null} when {@code template} is usable with a pattern of {@code groupCount}
   *         groups, otherwise what is wrong with it
   */
  static String problemWith(String template, int groupCount) {
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '\\') {
        if (i + 1 == template.length()) {
          return "ends with a lone backslash (write \\\\ for a backslash)";
        }
        i++;
      } else if (c == '$') {
        if (i + 1 == template.length()) {
          return "ends with a lone $ (write \\$ for a dollar sign)";
        }
        char next = template.charAt(i + 1);
        if (next == '{') {
          return "named groups (${name}) are not supported, use $1, $2, …";
        }
        if (next < '0' || next > '9') {
          return "$ must be followed by a group number (write \\$ for a dollar sign)";
        }
        if (next - '0' > groupCount) {
          return "refers to group $" + (next - '0') + " but the pattern has " + groupCount + " group(s)";
        }
      }
    }
    return null;
  }

  /** The template expanded for the current match of {@code matcher}. */
  static String expand(Matcher matcher, String template) {
    StringBuilder out = new StringBuilder();
    matcher.appendReplacement(out, template);
    return out.substring(matcher.start());
  }
}
