package io.sluice.protocol.udp.rules;

import org.junit.jupiter.api.Test;

import java.util.regex.PatternSyntaxException;

import static io.sluice.protocol.udp.rules.KeySemantics.BYTES;
import static io.sluice.protocol.udp.rules.KeySemantics.UNICODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyPatternTest {

  @Test
  void searchedAnywhereUnlessAnchored() {
    assertThat(KeyPattern.compile("global").isFoundIn("ws global", BYTES)).isTrue();
    assertThat(KeyPattern.compile("^global").isFoundIn("ws global", BYTES)).isFalse();
  }

  @Test
  void dollarAlsoMatchesBeforeAFinalNewlineAndOnlyNewlineEndsALine() {
    KeyPattern pattern = KeyPattern.compile("^ws global$");
    assertThat(pattern.isFoundIn("ws global\n", BYTES)).isTrue();
    assertThat(pattern.isFoundIn("ws global\r", BYTES)).isFalse();
    assertThat(pattern.isFoundIn("ws global\n\n", BYTES)).isFalse();
    assertThat(KeyPattern.compile("^.*$").isFoundIn("a\u0085b\u2028c\rd", BYTES)).isTrue();
    assertThat(KeyPattern.compile("^.*$").isFoundIn("a\nb", BYTES)).isFalse();
    assertThat(KeyPattern.compile("\\Aa\\z").isFoundIn("a\n", BYTES)).isFalse();
  }

  @Test
  void byteKeysUseAsciiWordBoundaries() {
    KeyPattern ip = KeyPattern.compile("\\bip=(10\\.1\\.1\\.[0-9]+)\\b");
    // byte 0xE9 is not a word character for Perl's byte strings, though Java 17's \b thinks it is
    assertThat(ip.isFoundIn("ws ip=10.1.1.5\u00E9", BYTES)).isTrue();
    assertThat(ip.isFoundIn("ws \u00E9ip=10.1.1.5", BYTES)).isTrue();
    assertThat(ip.isFoundIn("ws ip=10.1.1.5x", BYTES)).isFalse();
    assertThat(ip.isFoundIn("wsip=10.1.1.5", BYTES)).isFalse();
    assertThat(KeyPattern.compile("a\\Bb").isFoundIn("ab", BYTES)).isTrue();
    assertThat(KeyPattern.compile("a\\Bb").isFoundIn("a b", BYTES)).isFalse();
  }

  @Test
  void unicodeKeysUseUnicodeRules() {
    KeyPattern ip = KeyPattern.compile("\\bip=(10\\.1\\.1\\.[0-9]+)\\b");
    assertThat(ip.isFoundIn("ws ip=10.1.1.5\u00E9", UNICODE)).isFalse();
    KeyPattern digits = KeyPattern.compile("^ws ip=\\d+$");
    assertThat(digits.isFoundIn("ws ip=\u0661\u0662", UNICODE)).isTrue();
    assertThat(digits.isFoundIn("ws ip=\u0661\u0662", BYTES)).isFalse();
    KeyPattern jaikoz = KeyPattern.compile("(?i)\\b(jaikoz)\\b");
    assertThat(jaikoz.isFoundIn("JAI\u212AOZ", UNICODE)).as("KELVIN SIGN folds to k").isTrue();
    assertThat(jaikoz.isFoundIn("JAI\u212AOZ", BYTES)).isFalse();
  }

  @Test
  void caseInsensitiveMatchingOfBytesIsAsciiOnly() {
    assertThat(KeyPattern.compile("(?i)\u00E9").isFoundIn("\u00C9", BYTES)).isFalse();
    assertThat(KeyPattern.compile("(?i)\u00E9").isFoundIn("\u00C9", UNICODE)).isTrue();
    assertThat(KeyPattern.compile("(?i)picard").isFoundIn("PiCard/1.0", BYTES)).isTrue();
  }

  @Test
  void boundariesInsideClassesAndQuotesAreLeftAlone() {
    assertThat(KeyPattern.withAsciiWordBoundaries("[\\b]\\Q\\b\\E\\\\b[]\\b][^]\\b]"))
        .isEqualTo("[\\b]\\Q\\b\\E\\\\b[]\\b][^]\\b]");
    assertThat(KeyPattern.withAsciiWordBoundaries("\\b{g}")).isEqualTo("\\b{g}");
    assertThat(KeyPattern.withAsciiWordBoundaries("x\\by")).startsWith("x(?:(?<=").endsWith("))y");
  }

  @Test
  void exactlyMatchesOnlyThatKey() {
    KeyPattern exact = KeyPattern.exactly("a.b\\E(c)");
    assertThat(exact.isFoundIn("a.b\\E(c)", BYTES)).isTrue();
    assertThat(exact.isFoundIn("axb\\E(c)", BYTES)).isFalse();
    assertThat(exact.isFoundIn("a.b\\E(c)\n", BYTES)).isFalse();
  }

  @Test
  void invalidExpressionsAreRejected() {
    assertThatThrownBy(() -> KeyPattern.compile("(")).isInstanceOf(PatternSyntaxException.class);
  }

  @Test
  void groupCountSourceAndEquality() {
    KeyPattern pattern = KeyPattern.compile("(a)(b)?");
    assertThat(pattern.groupCount()).isEqualTo(2);
    assertThat(pattern.source()).isEqualTo("(a)(b)?");
    assertThat(pattern).hasToString("(a)(b)?").isEqualTo(KeyPattern.compile("(a)(b)?"));
  }
}
