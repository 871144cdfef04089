package io.sluice.verticles.engine.udprate.rate;

import io.sluice.verticles.strategies.encoding.StateFormat;

/**
 * A sliding window rule's state for one key: the check API's {@code sliding_window} state text
 * ({@code 71|previous|current|start}) as that strategy writes it, so a heal merges it as it merges
 * the check API's.
 */
public record WindowState(String text) implements UdpState {

  public WindowState {
    if (!isWindow(text)) {
      throw new IllegalArgumentException("not a sliding window state: '" + text + "'");
    }
  }

  static boolean isWindow(String text) {
    return text.startsWith(StateFormat.SLIDING_WINDOW);
  }
}
