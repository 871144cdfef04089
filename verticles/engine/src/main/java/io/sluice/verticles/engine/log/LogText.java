package io.sluice.verticles.engine.log;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * How keys and failures appear in log lines: one line each, whatever the bytes. A key is client
 * data and may hold anything, a failure may carry a thousand-frame stack: neither may break the
 * log into many lines.
 */
public final class LogText {

  private static final int LONGEST_KEY = 64;

  private LogText() {
  }

  /** A printable ASCII key in quotes, anything else in hex; long keys are cut. */
  public static String key(byte[] key) {
    if (key == null) {
      return "(none)";
    }
    int shown = Math.min(key.length, LONGEST_KEY);
    boolean printable = true;
    for (int i = 0; i < shown && printable; i++) {
      printable = key[i] >= 0x20 && key[i] < 0x7f && key[i] != '"';
    }
    String text = printable
        ? '"' + new String(key, 0, shown, StandardCharsets.US_ASCII) + '"'
        : "0x" + HexFormat.of().formatHex(key, 0, shown);
    return key.length > shown ? text + "… (" + key.length + " bytes)" : text;
  }

  /** The failure's type and message, and where it was thrown: enough to find the bug, in one line. */
  public static String failure(Throwable error) {
    StackTraceElement[] trace = error.getStackTrace();
    String text = String.valueOf(error).replaceAll("\\s+", " ");
    return trace.length == 0 ? text : text + " at " + trace[0];
  }
}
