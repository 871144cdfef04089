package io.sluice.protocol.udp.rules;

/**
 * Which regular-expression rules apply to a key, as Perl chose them for the original.
 *
 * <p>Keys of {@code over_limit} are byte strings: Perl matched them with ASCII rules ({@code \d},
 * {@code \w}, {@code \s}, {@code \b} and case-insensitive matching know only ASCII; bytes 0x80–0xFF
 * are neither letters nor digits). Keys that {@code check_limit} builds from JSON are decoded text;
 * when they contain a non-ASCII character Perl switched to Unicode rules. For pure-ASCII keys both
 * give the same result.
 */
public enum KeySemantics {
  /** A byte string (one char per byte): ASCII rules. */
  BYTES,
  /** Decoded text containing non-ASCII characters: Unicode rules. */
  UNICODE;

  /** The semantics Perl used for a key decoded from JSON: Unicode as soon as one character is not ASCII. */
  public static KeySemantics ofDecodedText(String key) {
    for (int i = 0; i < key.length(); i++) {
      if (key.charAt(i) >= 0x80) {
        return UNICODE;
      }
    }
    return BYTES;
  }
}
