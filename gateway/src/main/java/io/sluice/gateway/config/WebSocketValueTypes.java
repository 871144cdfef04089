package io.sluice.gateway.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The value types of the WebSocket bridge's access options (docs/websocket.md). */
final class WebSocketValueTypes {

  private WebSocketValueTypes() {
  }

  /** Comma-separated file paths, e.g. the current public key and the next one during a rotation. */
  static ValueType<List<Path>> paths() {
    return new ValueType<>("comma-separated file paths", text -> entries(text).stream().map(entry ->
        ValueType.path().parse(entry)).toList(), paths -> String.join(",", paths.stream().map(Path::toString).toList()));
  }

  /** Comma-separated channel names, each exact or with a trailing {@code *} (at most 255 bytes). */
  static ValueType<List<String>> channelPatterns() {
    return new ValueType<>("comma-separated channel names, a trailing * for a prefix", text -> {
      List<String> names = entries(text);
      for (String name : names) {
        if (name.getBytes(StandardCharsets.UTF_8).length > 255) {
          throw new IllegalArgumentException("a channel name is at most 255 bytes");
        }
      }
      return names;
    }, names -> String.join(",", names));
  }

  /** A claim value such as an issuer URL or an audience: visible ASCII, no spaces. */
  static ValueType<String> claim() {
    return new ValueType<>("visible ASCII, no spaces", text -> {
      String trimmed = text.trim();
      if (trimmed.isEmpty() || trimmed.length() > 512 || !trimmed.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
        throw new IllegalArgumentException("expected 1 to 512 visible ASCII characters without spaces");
      }
      return trimmed;
    }, value -> value);
  }

  private static List<String> entries(String text) {
    List<String> entries = new ArrayList<>();
    for (String part : text.split(",")) {
      if (!part.isBlank()) {
        entries.add(part.trim());
      }
    }
    return List.copyOf(entries);
  }
}
