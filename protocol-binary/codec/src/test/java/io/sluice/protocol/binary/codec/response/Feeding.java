package io.sluice.protocol.binary.codec.response;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** One way of cutting a byte stream into the chunks a socket might deliver. */
abstract class Feeding {

  private final String name;

  private Feeding(String name) {
    this.name = name;
  }

  abstract List<byte[]> split(byte[] stream);

  @Override
  public String toString() {
    return name;
  }

  /** Whole, one byte at a time, and a few seeded random splits (reproducible when one fails). */
  static Stream<Feeding> all() {
    return Stream.of(WHOLE, ONE_BYTE_AT_A_TIME, randomChunks(1), randomChunks(2), randomChunks(3), randomChunks(4));
  }

  static final Feeding WHOLE = new Feeding("whole") {
    List<byte[]> split(byte[] stream) {
      return List.of(stream);
    }
  };

  static final Feeding ONE_BYTE_AT_A_TIME = new Feeding("one byte at a time") {
    List<byte[]> split(byte[] stream) {
      List<byte[]> chunks = new ArrayList<>();
      for (byte b : stream) {
        chunks.add(new byte[] {b});
      }
      return chunks;
    }
  };

  /** Chunks of 1 up to a third of the stream, so some cut messages and some hold several. */
  static Feeding randomChunks(long seed) {
    return new Feeding("random chunks, seed " + seed) {
      List<byte[]> split(byte[] stream) {
        Random random = new Random(seed);
        int largest = Math.max(2, stream.length / 3);
        List<byte[]> chunks = new ArrayList<>();
        int from = 0;
        while (from < stream.length) {
          int to = Math.min(stream.length, from + 1 + random.nextInt(largest));
          chunks.add(Arrays.copyOfRange(stream, from, to));
          from = to;
        }
        return chunks;
      }
    };
  }
}
