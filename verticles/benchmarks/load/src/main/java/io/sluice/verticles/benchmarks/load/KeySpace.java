package io.sluice.verticles.benchmarks.load;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The keys one bench connection uses: the shared counters it prefills and updates, the buffers
 * SET writes (each counter's key with a {@code b} for its {@code k}: SET may not overwrite a
 * counter), and which new keys INSERT may make. Sending by owner, a connection to a node uses the
 * keys that node owns only.
 *
 * @param owns whether a key belongs to this key space (a new INSERT key is drawn until one does)
 */
record KeySpace(byte[][] counters, byte[][] buffers, Predicate<byte[]> owns) {

  /** Every one of {@code count} shared keys: {@code k} then 15 digits; made once for all connections. */
  static KeySpace all(int count) {
    byte[][] counters = new byte[count][];
    byte[][] buffers = new byte[count][];
    for (int i = 0; i < count; i++) {
      counters[i] = String.format("k%015d", i).getBytes(StandardCharsets.US_ASCII);
      buffers[i] = counters[i].clone();
      buffers[i][0] = 'b';
    }
    return new KeySpace(counters, buffers, key -> true);
  }

  /** The keys of this space that {@code owner} takes. */
  KeySpace ownedBy(Predicate<byte[]> owner) {
    return new KeySpace(Arrays.stream(counters).filter(owner).toArray(byte[][]::new),
        Arrays.stream(buffers).filter(owner).toArray(byte[][]::new), owns.and(owner));
  }
}
