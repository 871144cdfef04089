package io.sluice.protocol.udp.rules;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * A "stats-only" side effect (spec §5.1 step 1): when {@code pattern} is found in the key as the
 * client sent it (before any rewriting), the key {@code statsKey} gets one use with limit 3 and
 * period 3, strict, and its statistics are kept as never over. The reply is not affected.
 *
 * @param pattern   what to look for in the original key
 * @param statsKey  the key to count under, {@code $1} … referring to groups of {@code pattern}; or
 *                  {@code null} to count under the original key itself
 * @param lowercase lower-case the key to count under (Perl's {@code lc}: ASCII only for byte keys)
 */
public record StatsOnlyHook(KeyPattern pattern, String statsKey, boolean lowercase) {

  /** The limit the original used for stats-only keys ("limit and period are arbitrary"). */
  public static final double LIMIT = 3;
  /** The period the original used for stats-only keys. */
  public static final double PERIOD_SECONDS = 3;

  public StatsOnlyHook {
    Objects.requireNonNull(pattern, "pattern");
    if (statsKey != null) {
      String problem = Replacements.problemWith(statsKey, pattern.groupCount());
      if (problem != null) {
        throw new IllegalArgumentException("stats key " + statsKey + ": " + problem);
      }
    }
  }

  /** The key to count a stats-only use under, when this hook applies to {@code originalKey}. */
  public Optional<String> statsKeyFor(String originalKey, KeySemantics semantics) {
    Matcher matcher = pattern.matcher(originalKey, semantics);
    if (!matcher.find()) {
      return Optional.empty();
    }
    String key = statsKey == null ? originalKey : Replacements.expand(matcher, statsKey);
    if (lowercase) {
      key = semantics == KeySemantics.UNICODE ? key.toLowerCase(Locale.ROOT) : asciiLowercase(key);
    }
    return Optional.of(key);
  }

  private static String asciiLowercase(String key) {
    char[] chars = key.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] >= 'A' && chars[i] <= 'Z') {
        chars[i] = (char) (chars[i] + ('a' - 'A'));
      }
    }
    return new String(chars);
  }
}
