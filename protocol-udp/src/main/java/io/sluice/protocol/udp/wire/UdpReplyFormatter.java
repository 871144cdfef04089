package io.sluice.protocol.udp.wire;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The reply texts of the protocol (spec §3), formatted with C semantics ({@link CFormat}).
 *
 * <p>Replies are byte strings: one {@code char} per byte, to be sent with
 * {@link StandardCharsets#ISO_8859_1}. Keys echoed by {@code get_stats} are already byte strings;
 * the JSON of a {@code check_limit} reply is UTF-8, written here as bytes.
 */
public final class UdpReplyFormatter {

  private UdpReplyFormatter() {
  }

  /** {@code ok Y|N %.1f %.1f %d}: the verdict, the computed rate, the limit and the period (truncated). */
  public static String overLimit(boolean over, double rate, double limit, double periodSeconds) {
    return "ok " + (over ? 'Y' : 'N') + ' ' + CFormat.oneDecimal(rate) + ' ' + CFormat.oneDecimal(limit)
        + ' ' + CFormat.truncate(periodSeconds);
  }

  /** {@code n_req=%d n_over=%d last_max_rate=%d key=%s}. */
  public static String stats(long requests, long overLimit, long lastMaxRate, String key) {
    return "n_req=" + requests + " n_over=" + overLimit + " last_max_rate=" + lastMaxRate + " key=" + key;
  }

  /** {@code size=%s keys=%d}; Sluice prints the key count for size (as Perl 5.26 and later do). */
  public static String size(long keys) {
    return "size=" + keys + " keys=" + keys;
  }

  public static String pong() {
    return "pong";
  }

  /** What one key of a {@code check_limit} request got: the key (decoded text) and its {@link #overLimit} reply. */
  public record KeyVerdict(String key, String reply) {
  }

  /**
   * {@code <reply of the last evaluated key>, <JSON array of all keys>, <JSON array of results>}
   * (spec §8), compact JSON, each result an object {@code {"key":…,"over_limit":…}} (the original's
   * member order varied with Perl's hash order; Sluice always writes {@code key} first).
   *
   * @param allKeys   every derived key, evaluated or not
   * @param evaluated the keys evaluated, in order (evaluation stops at the first {@code Y}); not empty
   */
  public static String checkLimit(List<String> allKeys, List<KeyVerdict> evaluated) {
    if (evaluated.isEmpty()) {
      throw new IllegalArgumentException("check_limit evaluates at least one key");
    }
    StringBuilder keys = new StringBuilder("[");
    for (String key : allKeys) {
      if (keys.length() > 1) {
        keys.append(',');
      }
      appendJsonString(keys, key);
    }
    keys.append(']');
    StringBuilder results = new StringBuilder("[");
    for (KeyVerdict verdict : evaluated) {
      if (results.length() > 1) {
        results.append(',');
      }
      results.append("{\"key\":");
      appendJsonString(results, verdict.key());
      results.append(",\"over_limit\":");
      appendJsonString(results, verdict.reply());
      results.append('}');
    }
    results.append(']');
    String last = evaluated.get(evaluated.size() - 1).reply();
    return last + ", " + utf8ByteString(keys) + ", " + utf8ByteString(results);
  }

  /** Prefixes the request id and one space when the request had one ({@code null}: no id). */
  public static String withRequestId(String requestId, String body) {
    return requestId == null ? body : requestId + ' ' + body;
  }

  /**
   * A JSON string as Perl's JSON encoder writes it: {@code "} and {@code \} escaped, the control
   * characters below U+0020 as {@code \b \t \n \f \r} or <code>&#92;u00xx</code> (lower-case hex), everything
   * else (including {@code /}, DEL and non-ASCII) as is.
   */
  private static void appendJsonString(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\b':
          out.append("\\b");
          break;
        case '\t':
          out.append("\\t");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\f':
          out.append("\\f");
          break;
        case '\r':
          out.append("\\r");
          break;
        default:
          if (c < 0x20) {
            out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }

  private static String utf8ByteString(CharSequence text) {
    return new String(text.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }
}
