package io.sluice.protocol.binary.codec.response;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Builds byte strings the way the spec writes them. */
final class Bytes {

  private Bytes() {
  }

  /**
   * Hex bytes separated by spaces, as in spec §9; {@code 00*7} stands for seven {@code 00} bytes
   * (the spec's {@code 00×7}).
   */
  static byte[] hex(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String token : text.trim().split("\\s+")) {
      String[] valueAndCount = token.split("\\*");
      int value = Integer.parseInt(valueAndCount[0], 16);
      int count = valueAndCount.length == 2 ? Integer.parseInt(valueAndCount[1]) : 1;
      for (int i = 0; i < count; i++) {
        out.write(value);
      }
    }
    return out.toByteArray();
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] u64(long value) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
  }

  static byte[] zeros(int count) {
    return new byte[count];
  }

  /** {@code count} bytes counting up from {@code first}: recognisable IDs. */
  static byte[] sequence(int first, int count) {
    byte[] bytes = new byte[count];
    for (int i = 0; i < count; i++) {
      bytes[i] = (byte) (first + i);
    }
    return bytes;
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
