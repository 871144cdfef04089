package io.sluice.verticles.engine.storage;

/**
 * The shard hash of a key's bytes: MurmurHash3 (x86, 32-bit) with a fixed seed. It decides which
 * shard owns a key, so it must be the same function on every node of a future cluster and across
 * restarts: it is fixed and public, and anyone can compute keys that share one value (see
 * {@link CollidingKeys}). That only lets a client put its own keys on one shard, which costs that
 * shard no more per request than any busy client. Bucket placement inside a shard is a different,
 * keyed hash ({@link TableHash}), because there collisions would cost every request on the shard.
 */
public final class KeyHash {

  /** The seed, public because clients that send each key to its owner compute this hash too (docs/cluster.md). */
  public static final int SEED = 0x5c_1c_e0_01;
  static final int BLOCK_ADD = 0xe6546b64;
  static final int MIX_1 = 0xcc9e2d51;
  static final int MIX_2 = 0x1b873593;
  static final int FINISH_1 = 0x85ebca6b;
  static final int FINISH_2 = 0xc2b2ae35;

  private KeyHash() {
  }

  public static int of(byte[] key) {
    int length = key.length;
    int blocks = length & ~3;
    int h = absorb(SEED, key, blocks);
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
    return finish(h, length);
  }

  /** The state after the 4-byte blocks of {@code key} before {@code end}, starting from {@code h}. */
  static int absorb(int h, byte[] key, int end) {
    for (int i = 0; i < end; i += 4) {
      h = mixBlock(h, (key[i] & 0xff) | (key[i + 1] & 0xff) << 8 | (key[i + 2] & 0xff) << 16 | key[i + 3] << 24);
    }
    return h;
  }

  static int mixBlock(int h, int k) {
    return Integer.rotateLeft(h ^ mixK(k), 13) * 5 + BLOCK_ADD;
  }

  static int finish(int h, int length) {
    int x = h ^ length;
    x ^= x >>> 16;
    x *= FINISH_1;
    x ^= x >>> 13;
    x *= FINISH_2;
    x ^= x >>> 16;
    return x;
  }

  /** The shard for a hash, from its high bits. */
  public static int shardOf(int hash, int shards) {
    return (int) (((hash >>> 16) * (long) shards) >>> 16);
  }

  static int mixK(int k) {
    return Integer.rotateLeft(k * MIX_1, 15) * MIX_2;
  }
}
