package io.sluice.gateway.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean" suggestions for mistyped flags and YAML keys. */
final class Spelling {

  private Spelling() {
  }

  /**
   * The candidate nearest to {@code input} by edit distance, if near enough to be a plausible
   * typo: at most two edits, or a quarter of the input's length for long names.
   */
  static Optional<String> closest(String input, Collection<String> candidates) {
    int allowed = Math.max(2, input.length() / 4);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = editDistance(input, candidate);
      if (distance <= allowed && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Levenshtein distance, two rows at a time. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
