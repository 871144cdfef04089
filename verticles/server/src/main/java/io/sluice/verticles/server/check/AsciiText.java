package io.sluice.verticles.server.check;

import io.netty.util.AsciiString;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An answer's header field or body put together from parts prepared once as bytes (a policy's
 * quoted item names, the JSON body's field names) and the numbers of one decision, written as
 * ASCII digits: no string is built and encoded per request. Used by one answer at a time.
 */
final class AsciiText {

  private static final byte[] LONG_MIN = ascii(Long.toString(Long.MIN_VALUE));
  private byte[] bytes;
  private int length;

  AsciiText(int capacity) {
    this.bytes = new byte[capacity];
  }

  /** A constant part, prepared once; it must be ASCII (names here are drawn from ASCII only). */
  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  AsciiText append(byte[] part) {
    ensure(part.length);
    System.arraycopy(part, 0, bytes, length, part.length);
    length += part.length;
    return this;
  }

  /** The number in decimal, as {@link Long#toString(long)} writes it. */
  AsciiText append(long number) {
    if (number == Long.MIN_VALUE) {
      return append(LONG_MIN);
    }
    if (number < 0) {
      ensure(1);
      bytes[length++] = '-';
      number = -number;
    }
    int digits = digits(number);
    ensure(digits);
    int at = length + digits;
    do {
      bytes[--at] = (byte) ('0' + number % 10);
      number /= 10;
    } while (number != 0);
    length += digits;
    return this;
  }

  int length() {
    return length;
  }

  /** Starts again, keeping the room grown so far. */
  AsciiText clear() {
    length = 0;
    return this;
  }

  /** A header value: Netty writes an {@link AsciiString}'s bytes as they are, with no encoding. */
  AsciiString toAsciiString() {
    return new AsciiString(bytes, 0, length, true);
  }

  Buffer toBuffer() {
    return Buffer.buffer(length).appendBytes(bytes, 0, length);
  }

  @Override
  public String toString() {
    return new String(bytes, 0, length, StandardCharsets.US_ASCII);
  }

  private static int digits(long positive) {
    int digits = 1;
    for (long bound = 10; digits < 19 && positive >= bound; bound *= 10) {
      digits++;
    }
    return digits;
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }
}
