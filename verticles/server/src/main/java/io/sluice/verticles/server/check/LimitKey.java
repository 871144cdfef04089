package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import java.nio.charset.StandardCharsets;

/**
 * Where a policy's state for one key is stored: the buffer record {@code rl:<policy>:<key>}
 * (UTF-8), which a Throttr GET of the same key shows. Throttr keys are at most 255 bytes, so a
 * longer key is refused rather than stored where no Throttr client could read it.
 */
public final class LimitKey {

  /** The prefix of every policy state record's key; the policy's name and a colon follow it. */
  public static final String PREFIX = "rl:";
  static final int MAX_BYTES = 255;

  private LimitKey() {
  }

  /** @throws ApiError 400 when the record key would exceed 255 bytes */
  static byte[] of(String policy, String key) {
    byte[] bytes = (PREFIX + policy + ':' + key).getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw ApiError.badRequest("key too long: the state record " + PREFIX + policy + ":<key> must fit in "
          + MAX_BYTES + " bytes (a Throttr key), this one takes " + bytes.length);
    }
    return bytes;
  }

  /** The policy's name in a record key this class made: policy names hold no colon. */
  static String policyOf(byte[] key) {
    String text = new String(key, StandardCharsets.UTF_8);
    return text.substring(PREFIX.length(), text.indexOf(':', PREFIX.length()));
  }
}
