package io.sluice.verticles.engine.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;

/**
 * The hash that places a key in its shard's {@link RecordTable}: SipHash-1-3 (the keyed hash of
 * Rust's and Python's hash tables) under a random 128-bit key drawn for each table.
 *
 * <p>Why not {@link KeyHash}: keys come from unauthenticated clients, and the shard hash is fixed,
 * public and even invertible, so anyone can compute as many keys as they like with one shard hash
 * (issue 12: 100,000 of them made inserts 46 times slower). SipHash is a pseudo-random function of
 * its key: without the key, which never leaves the process, colliding keys cannot be computed, and
 * learning the shard hash teaches nothing about bucket placement. {@link RecordTable}'s tree bins
 * bound the cost even if bucket collisions happen anyway.
 */
final class TableHash {

  private static final SecureRandom KEYS = new SecureRandom();
  private static final VarHandle LITTLE_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long k0;
  private final long k1;

  TableHash(long k0, long k1) {
    this.k0 = k0;
    this.k1 = k1;
  }

  static TableHash random() {
    return new TableHash(KEYS.nextLong(), KEYS.nextLong());
  }

  /** SipHash-1-3's 64 bits folded into 32. */
  int of(byte[] key) {
    long hash = sipHash13(key);
    return (int) (hash ^ (hash >>> 32));
  }

  long sipHash13(byte[] key) {
    long v0 = k0 ^ 0x736f6d6570736575L;
    long v1 = k1 ^ 0x646f72616e646f6dL;
    long v2 = k0 ^ 0x6c7967656e657261L;
    long v3 = k1 ^ 0x7465646279746573L;
    int length = key.length;
    int whole = length & ~7;
    // Each 8-byte word, then the last word (the tail bytes and the length), takes one compression
    // round; then three finalisation rounds. Written as one loop so the round exists once.
    int rounds = 1;
    for (int at = 0; at <= whole + 8; at += 8) {
      long word;
      if (at < whole) {
        word = (long) LITTLE_ENDIAN_LONG.get(key, at);
      } else if (at == whole) {
        word = (long) length << 56;
        for (int i = whole; i < length; i++) {
          word |= (key[i] & 0xffL) << ((i - whole) << 3);
        }
      } else {
        word = 0;
        v2 ^= 0xff;
        rounds = 3;
      }
      v3 ^= word;
      for (int round = 0; round < rounds; round++) {
        v0 += v1;
        v1 = Long.rotateLeft(v1, 13) ^ v0;
        v0 = Long.rotateLeft(v0, 32);
        v2 += v3;
        v3 = Long.rotateLeft(v3, 16) ^ v2;
        v0 += v3;
        v3 = Long.rotateLeft(v3, 21) ^ v0;
        v2 += v1;
        v1 = Long.rotateLeft(v1, 17) ^ v2;
        v2 = Long.rotateLeft(v2, 32);
      }
      v0 ^= word;
    }
    return v0 ^ v1 ^ v2 ^ v3;
  }
}
