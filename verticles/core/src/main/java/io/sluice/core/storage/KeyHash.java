package io.sluice.core.storage;

/**
 * The hash of a key's bytes: MurmurHash3 (x86, 32-bit). It decides both the shard that owns a key
 * and the key's bucket in that shard's table, so it must spread well in its low and high bits.
 */
public final class KeyHash {

  private static final int SEED = 0x5c_1c_e0_01;

  private KeyHash() {
  }

  public static int of(byte[] key) {
    int h = SEED;
    int length = key.length;
    int blocks = length & ~3;
    for (int i = 0; i < blocks; i += 4) {
      int k = (key[i] & 0xff) | (key[i + 1] & 0xff) << 8 | (key[i + 2] & 0xff) << 16 | key[i + 3] << 24;
      h ^= mixK(k);
      h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
    }
    int k = 0;
    switch (length & 3) {
      case 3:
        k ^= (key[blocks + 2] & 0xff) << 16;
      // fall through
      case 2:
        k ^= (key[blocks + 1] & 0xff) << 8;
      // fall through
      case 1:
        k ^= key[blocks] & 0xff;
        h ^= mixK(k);
      // fall through
      default:
    }
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /** The shard for a hash: uses the high bits, the table index uses the low ones. */
  public static int shardOf(int hash, int shards) {
    return (int) (((hash >>> 16) * (long) shards) >>> 16);
  }

  private static int mixK(int k) {
    k *= 0xcc9e2d51;
    k = Integer.rotateLeft(k, 15);
    return k * 0x1b873593;
  }
}
