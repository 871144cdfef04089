package io.sluice.verticles.rls;

import java.util.List;

/**
 * A descriptor value with {@code *} anywhere ({@code api*}, {@code bar*b}, {@code foo*bar*baz}):
 * each {@code *} matches any run of characters, none included, as in envoyproxy/ratelimit. The
 * pattern is split once at load, so a match allocates nothing: the value must start with the first
 * part and end with the last, and the middle parts must follow each other in between, leftmost
 * first.
 */
final class WildcardPattern {

  private final String text;
  private final List<String> parts;
  private final int fixedLength;

  WildcardPattern(String text) {
    this.text = text;
    this.parts = List.of(text.split("\\*", -1));
    this.fixedLength = parts.stream().mapToInt(String::length).sum();
  }

  static boolean isWildcard(String value) {
    return value != null && value.indexOf('*') >= 0;
  }

  boolean matches(String value) {
    String first = parts.get(0);
    String last = parts.get(parts.size() - 1);
    if (value.length() < fixedLength || !value.startsWith(first) || !value.endsWith(last)) {
      return false;
    }
    int from = first.length();
    int to = value.length() - last.length();
    for (int i = 1; i < parts.size() - 1; i++) {
      int at = value.indexOf(parts.get(i), from);
      if (at < 0 || at + parts.get(i).length() > to) {
        return false;
      }
      from = at + parts.get(i).length();
    }
    return true;
  }

  @Override
  public String toString() {
    return text;
  }
}
