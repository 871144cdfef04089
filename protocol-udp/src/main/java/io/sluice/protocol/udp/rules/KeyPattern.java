package io.sluice.protocol.udp.rules;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regular expression of the rule table, written in {@link Pattern} syntax (which covers the Perl
 * expressions of the original) and matched the way Perl matched keys:
 *
 * <ul>
 *   <li>searched anywhere in the key ({@link Matcher#find()}); anchor with {@code ^…$} or
 *       {@code \A…\z};</li>
 *   <li>{@code .}, {@code ^} and {@code $} know only {@code \n} as a line end, and {@code $} also
 *       matches before a final {@code \n} ({@link Pattern#UNIX_LINES}), like Perl without
 *       {@code /s} or {@code /m};</li>
 *   <li>for {@link KeySemantics#BYTES byte keys} ASCII classes and case folding, with {@code \b} and
 *       {@code \B} rewritten to ASCII word boundaries (Java 17's {@code \b} treats non-ASCII letters
 *       as word characters, Perl's byte-string {@code \b} does not);</li>
 *   <li>for {@link KeySemantics#UNICODE Unicode keys} Unicode classes and case folding
 *       ({@link Pattern#UNICODE_CHARACTER_CLASS}).</li>
 * </ul>
 */
public final class KeyPattern {

  private static final String ASCII_WORD = "[0-9A-Za-z_]";
  private static final String ASCII_WORD_BOUNDARY =
      "(?:(?<=" + ASCII_WORD + ")(?!" + ASCII_WORD + ")|(?<!" + ASCII_WORD + ")(?=" + ASCII_WORD + "))";
  private static final String ASCII_NON_BOUNDARY =
      "(?:(?<=" + ASCII_WORD + ")(?=" + ASCII_WORD + ")|(?<!" + ASCII_WORD + ")(?!" + ASCII_WORD + "))";

  private final String source;
  private final Pattern forBytes;
  private final Pattern forUnicode;

  private KeyPattern(String source, Pattern forBytes, Pattern forUnicode) {
    this.source = source;
    this.forBytes = forBytes;
    this.forUnicode = forUnicode;
  }

  /** @throws PatternSyntaxException when {@code regex} is not a valid expression */
  public static KeyPattern compile(String regex) {
    // the expression as written first, so that syntax errors point into the user's text
    Pattern forUnicode = Pattern.compile(regex, Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS);
    Pattern forBytes = Pattern.compile(withAsciiWordBoundaries(regex), Pattern.UNIX_LINES);
    return new KeyPattern(regex, forBytes, forUnicode);
  }

  /** A pattern that matches exactly {@code key} and nothing else. */
  public static KeyPattern exactly(String key) {
    return compile("\\A" + Pattern.quote(key) + "\\z");
  }

  /** The expression as written. */
  public String source() {
    return source;
  }

  /** Number of capturing groups. */
  public int groupCount() {
    return forBytes.matcher("").groupCount();
  }

  public Matcher matcher(String key, KeySemantics semantics) {
    return (semantics == KeySemantics.UNICODE ? forUnicode : forBytes).matcher(key);
  }

  /** Whether the expression matches somewhere in {@code key}. */
  public boolean isFoundIn(String key, KeySemantics semantics) {
    return matcher(key, semantics).find();
  }

  @Override
  public String toString() {
    return source;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KeyPattern pattern && pattern.source.equals(source);
  }

  @Override
  public int hashCode() {
    return source.hashCode();
  }

  /**
   * Replaces each {@code \b} and {@code \B} outside character classes and {@code \Q…\E} quotes with
   * an ASCII-only equivalent; everything else is copied unchanged.
   */
  static String withAsciiWordBoundaries(String regex) {
    StringBuilder out = new StringBuilder(regex.length() + 32);
    int classDepth = 0;
    boolean quoting = false;
    int i = 0;
    while (i < regex.length()) {
      char c = regex.charAt(i);
      if (quoting) {
        if (regex.startsWith("\\E", i)) {
          quoting = false;
          out.append("\\E");
          i += 2;
        } else {
          out.append(c);
          i++;
        }
        continue;
      }
      if (c == '\\' && i + 1 < regex.length()) {
        char escaped = regex.charAt(i + 1);
        boolean boundary = (escaped == 'b' || escaped == 'B') && classDepth == 0
            && !regex.startsWith("{", i + 2);
        if (escaped == 'Q') {
          quoting = true;
        }
        if (boundary) {
          out.append(escaped == 'b' ? ASCII_WORD_BOUNDARY : ASCII_NON_BOUNDARY);
        } else {
          out.append(c).append(escaped);
        }
        i += 2;
        continue;
      }
      if (c == '[') {
        classDepth++;
        out.append(c);
        i++;
        // A ']' right after '[' or '[^' is a literal member, not the end of the class.
        if (regex.startsWith("^", i)) {
          out.append('^');
          i++;
        }
        if (regex.startsWith("]", i)) {
          out.append(']');
          i++;
        }
        continue;
      }
      if (c == ']' && classDepth > 0) {
        classDepth--;
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }
}
