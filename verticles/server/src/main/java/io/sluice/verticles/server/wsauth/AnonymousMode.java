package io.sluice.verticles.server.wsauth;

import java.util.Locale;

/** What a WebSocket client that presented no token may do ({@code --ws-anonymous}). */
public enum AnonymousMode {
  /** Nothing until it authenticates. */
  NONE,
  /** Read the public channels ({@code --ws-public-channels}); no publish. */
  SUBSCRIBE,
  /** Subscribe and publish on any channel but {@code *} and other connections' ID channels. */
  ALL;

  /** @throws IllegalArgumentException for anything but none, subscribe or all */
  public static AnonymousMode parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not none, subscribe or all", e);
    }
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
