package io.sluice.verticles.server.dashboard;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

import io.sluice.protocol.binary.codec.TtlUnit;

/**
 * How binary names (keys, channels, connection IDs) and TTL units appear in the dashboard's JSON:
 * names as UTF-8 text (invalid sequences replaced) for people plus base64 for the exact bytes.
 */
final class Names {

  private Names() {
  }

  /** Puts {@code field} (text) and {@code fieldBase64} (exact bytes). */
  static JsonObject put(JsonObject json, String field, byte[] name) {
    return json.put(field, new String(name, StandardCharsets.UTF_8))
        .put(field + "Base64", Base64.getEncoder().encodeToString(name));
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String hex(byte[] id) {
    return HexFormat.of().formatHex(id);
  }

  /** The unit's name in lower case, or {@code unknown} for a type byte that names none. */
  static String ttlUnit(int ttlType) {
    TtlUnit unit = TtlUnit.ofCode(ttlType);
    return unit == null ? "unknown" : unit.name().toLowerCase(Locale.ROOT);
  }
}
