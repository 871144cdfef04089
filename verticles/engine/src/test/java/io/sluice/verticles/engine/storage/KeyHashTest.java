package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The shard hash picks shards evenly, and its collisions can be computed (which is why tables do not use it). */
class KeyHashTest {

  private static final int KEYS = 100_000;

  private static byte[][] randomKeys(long seed) {
    Random random = new Random(seed);
    byte[][] keys = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      byte[] key = new byte[1 + random.nextInt(32)];
      random.nextBytes(key);
      keys[i] = key;
    }
    return keys;
  }

  private static void assertEven(int[] counts) {
    double even = (double) KEYS / counts.length;
    for (int i = 0; i < counts.length; i++) {
      assertThat((double) counts[i]).as("slot %d of %d", i, counts.length).isBetween(even * 0.95, even * 1.05);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 8})
  void shardOfSpreadsRandomKeysEvenly(int shards) {
    int[] counts = new int[shards];
    for (byte[] key : randomKeys(shards)) {
      int shard = KeyHash.shardOf(KeyHash.of(key), shards);
      assertThat(shard).isBetween(0, shards - 1);
      counts[shard]++;
    }
    assertEven(counts);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 8})
  void shardOfSpreadsSequentialAsciiKeysEvenly(int shards) {
    int[] counts = new int[shards];
    for (int i = 0; i < KEYS; i++) {
      counts[KeyHash.shardOf(KeyHash.of(("user:" + i).getBytes()), shards)]++;
    }
    assertEven(counts);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "u", "rl:login:", "udp:"})
  void collidingKeysAreDistinctAndShareTheWantedHash(String prefix) {
    byte[][] keys = CollidingKeys.of(prefix.getBytes(), 0x1234_5678, 1_000);
    Set<String> distinct = new HashSet<>();
    for (byte[] key : keys) {
      assertThat(KeyHash.of(key)).isEqualTo(0x1234_5678);
      assertThat(new String(key, 0, prefix.length())).isEqualTo(prefix);
      distinct.add(java.util.HexFormat.of().formatHex(key));
    }
    assertThat(distinct).hasSize(1_000);
    assertThat(CollidingKeys.of(new byte[0], -1, 1)[0]).hasSize(8);
  }

  @Test
  void shardOfCoversEveryShardUpToTheExtremes() {
    assertThat(KeyHash.shardOf(0, 8)).isZero();
    assertThat(KeyHash.shardOf(-1, 8)).isEqualTo(7);
    assertThat(KeyHash.shardOf(Integer.MIN_VALUE, 2)).isEqualTo(1);
    assertThat(KeyHash.shardOf(Integer.MAX_VALUE, 2)).isZero();
    assertThat(KeyHash.shardOf(-1, 1)).isZero();
  }

  @Test
  void equalBytesGiveEqualHashes() {
    for (byte[] key : randomKeys(7)) {
      assertThat(KeyHash.of(key.clone())).isEqualTo(KeyHash.of(key));
    }
    assertThat(KeyHash.of("abc".getBytes())).isEqualTo(KeyHash.of(new byte[] {0x61, 0x62, 0x63}));
  }

  @Test
  void everyByteAndLengthAffectsTheHash() {
    Set<Integer> hashes = new HashSet<>();
    byte[] base = new byte[12];
    for (int length = 0; length <= base.length; length++) {
      hashes.add(KeyHash.of(java.util.Arrays.copyOf(base, length)));
    }
    assertThat(hashes).as("zero keys of lengths 0..12").hasSize(13);

    for (int position = 0; position < base.length; position++) {
      byte[] changed = base.clone();
      changed[position] = (byte) 0x80;
      assertThat(KeyHash.of(changed)).as("byte %d", position).isNotEqualTo(KeyHash.of(base));
    }
  }
}
