package io.sluice.verticles.engine.udprate.rate;

import java.nio.charset.StandardCharsets;

/**
 * A UDP key's {@link UdpState} as its record stores it: a decaying rate as {@link StoredRate}'s 18
 * bytes, a sliding window as its state text (ISO-8859-1, as every check API state).
 */
public final class StoredState {

  private StoredState() {
  }

  public static byte[] encode(UdpState state) {
    if (state instanceof WindowState window) {
      return window.text().getBytes(StandardCharsets.ISO_8859_1);
    }
    return StoredRate.encode((RateState) state);
  }

  /** Malformed state is an error, never a silent reset. */
  public static UdpState decode(byte[] value) {
    if (StoredRate.is(value)) {
      return StoredRate.decode(value);
    }
    String text = new String(value, StandardCharsets.ISO_8859_1);
    if (WindowState.isWindow(text)) {
      return new WindowState(text);
    }
    throw new IllegalStateException("malformed UDP state '" + text + "' (expected " + StoredRate.BYTES
        + " bytes starting with u2, or a sliding window's 71|…)");
  }
}
