package io.sluice.verticles.server.kit;

import java.util.HexFormat;

/** Test vectors are written as in the spec: hex bytes separated by spaces, {@code 00×7} for repeats. */
public final class Hex {

  private Hex() {
  }

  public static byte[] bytes(String spaced) {
    StringBuilder plain = new StringBuilder();
    for (String token : spaced.trim().split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      int times = token.indexOf('×');
      if (times > 0) {
        plain.append(token.substring(0, times).repeat(Integer.parseInt(token.substring(times + 1))));
      } else {
        plain.append(token);
      }
    }
    return HexFormat.of().parseHex(plain.toString());
  }

  public static String of(byte[] bytes) {
    return HexFormat.ofDelimiter(" ").formatHex(bytes);
  }
}
