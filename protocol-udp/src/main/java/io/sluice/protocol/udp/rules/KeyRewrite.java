package io.sluice.protocol.udp.rules;

import java.util.Objects;
import java.util.regex.Matcher;

/**
 * One "munging" step (spec §5.1): where {@code pattern} is found in the key, its first occurrence is
 * replaced by {@code replacement} (Perl's {@code s///} without {@code /g}), or, with
 * {@code wholeKey}, the whole key becomes {@code replacement}. Skipped when {@code unless} is found
 * in the key.
 *
 * @param pattern     what to look for
 * @param replacement the replacement, {@code $1} … referring to groups of {@code pattern}
 * @param wholeKey    replace the whole key instead of the matched part
 * @param unless      skip this step when found in the key, or {@code null}
 */
public record KeyRewrite(KeyPattern pattern, String replacement, boolean wholeKey, KeyPattern unless) {

  public KeyRewrite {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(replacement, "replacement");
    String problem = Replacements.problemWith(replacement, pattern.groupCount());
    if (problem != null) {
      throw new IllegalArgumentException("replacement " + replacement + ": " + problem);
    }
  }

  /** Replaces the first occurrence of {@code pattern} with {@code replacement}. */
  public static KeyRewrite firstOccurrence(String pattern, String replacement) {
    return new KeyRewrite(KeyPattern.compile(pattern), replacement, false, null);
  }

  /** The key, rewritten by this step (or unchanged when the step does not apply). */
  public String apply(String key, KeySemantics semantics) {
    if (unless != null && unless.isFoundIn(key, semantics)) {
      return key;
    }
    Matcher matcher = pattern.matcher(key, semantics);
    if (!matcher.find()) {
      return key;
    }
    String replaced = Replacements.expand(matcher, replacement);
    if (wholeKey) {
      return replaced;
    }
    return key.substring(0, matcher.start()) + replaced + key.substring(matcher.end());
  }
}
