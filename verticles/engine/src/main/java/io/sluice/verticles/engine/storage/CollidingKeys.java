package io.sluice.verticles.engine.storage;

/**
 * Keys that all share one shard hash, {@link KeyHash#of}: what a client who read the source can
 * send. MurmurHash3 is invertible, so each key is solved for, not searched: after the prefix (and
 * padding to a 4-byte boundary) come a 4-byte counter that makes the keys distinct and a last
 * 4-byte block computed so the hash comes out as wanted. Tests and benchmarks use them to show that
 * such keys cost a shard's table no more than any others.
 */
public final class CollidingKeys {

  private static final int INVERSE_5 = inverse(5);

  private CollidingKeys() {
  }

  /** {@code count} distinct keys {@code prefix + 0–3 padding bytes + 8 bytes}, each with shard hash {@code hash}. */
  public static byte[][] of(byte[] prefix, int hash, int count) {
    byte[][] keys = new byte[count][];
    for (int n = 0; n < count; n++) {
      keys[n] = key(prefix, hash, n);
    }
    return keys;
  }

  /** Key number {@code n} of {@link #of}: the same for the same arguments, distinct for each {@code n}. */
  public static byte[] key(byte[] prefix, int hash, int n) {
    int length = ((prefix.length + 3) & ~3) + 8;
    byte[] key = new byte[length];
    System.arraycopy(prefix, 0, key, 0, prefix.length);
    putInt(key, length - 8, n);
    // The state the last block must lead to is the finalisation undone; the block is solved for it.
    int wanted = unfinish(hash) ^ length;
    int beforeLast = Integer.rotateRight((wanted - KeyHash.BLOCK_ADD) * INVERSE_5, 13);
    int h = KeyHash.absorb(KeyHash.SEED, key, length - 4);
    putInt(key, length - 4, unmixK(beforeLast ^ h));
    return key;
  }

  private static int unfinish(int hash) {
    int x = hash ^ (hash >>> 16);
    x *= inverse(KeyHash.FINISH_2);
    x ^= (x >>> 13) ^ (x >>> 26);
    x *= inverse(KeyHash.FINISH_1);
    return x ^ (x >>> 16);
  }

  private static int unmixK(int mixed) {
    return Integer.rotateRight(mixed * inverse(KeyHash.MIX_2), 15) * inverse(KeyHash.MIX_1);
  }

  /** The multiplicative inverse of an odd number modulo 2^32 (Newton's iteration doubles the correct bits). */
  private static int inverse(int odd) {
    int x = odd;
    for (int i = 0; i < 5; i++) {
      x *= 2 - odd * x;
    }
    return x;
  }

  private static void putInt(byte[] key, int at, int value) {
    key[at] = (byte) value;
    key[at + 1] = (byte) (value >>> 8);
    key[at + 2] = (byte) (value >>> 16);
    key[at + 3] = (byte) (value >>> 24);
  }
}
