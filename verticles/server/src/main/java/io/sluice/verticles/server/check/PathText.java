package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Percent-decoding of URL path text (RFC 3986: {@code +} is a plus sign here, not a space). */
final class PathText {

  private PathText() {
  }

  /**
   * A path under a prefix that names a policy, {@code PREFIX{policy}[/rest]}.
   *
   * @param policy the policy's name, decoded ({@code ""} when missing)
   * @param rest   what follows the name from its {@code /} on, still encoded, or null
   */
  record Split(String policy, String rest) {
  }

  /** @throws ApiError 400 on a malformed escape in the policy's name */
  static Split split(String path, String prefix) {
    String after = path.length() > prefix.length() ? path.substring(prefix.length()) : "";
    int slash = after.indexOf('/');
    return slash < 0 ? new Split(decode(after), null) : new Split(decode(after.substring(0, slash)), after.substring(slash));
  }

  /** @throws ApiError 400 on a malformed escape */
  static String decode(String raw) {
    if (raw.indexOf('%') < 0) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(encoded, 0, encoded.length);
        continue;
      }
      int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
      int low = high < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
      if (low < 0) {
        throw ApiError.badRequest("malformed percent-escape in the path at '" + raw.substring(i) + "'");
      }
      bytes.write(high * 16 + low);
      i += 2;
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
