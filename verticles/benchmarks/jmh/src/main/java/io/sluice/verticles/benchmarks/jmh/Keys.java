package io.sluice.verticles.benchmarks.jmh;

/** 16-byte keys: a letter and 15 decimal digits, built without String.format's cost in the measured loop. */
final class Keys {

  private Keys() {
  }

  static byte[] numbered(char prefix, long number) {
    byte[] key = new byte[16];
    key[0] = (byte) prefix;
    long rest = number;
    for (int i = 15; i > 0; i--) {
      key[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
    return key;
  }
}
