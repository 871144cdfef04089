package io.sluice.protocol.binary.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Small helpers shared by the codec tests: hex and byte building, feeding a decoder, describing requests. */
final class CodecTestKit {

  /** The reference server's receive buffer size, which is also Sluice's frame limit (spec §1.5, §1.6). */
  static final int MAX_FRAME = 8096;

  private CodecTestKit() {
  }

  // ---------------------------------------------------------------- bytes

  /** Parses hex as the spec writes it: pairs of digits, spaces and {@code |} separators ignored. */
  static byte[] hex(String text) {
    String digits = text.replaceAll("[\\s|]", "");
    if (digits.length() % 2 != 0) {
      throw new IllegalArgumentException("odd number of hex digits in '" + text + "'");
    }
    byte[] bytes = new byte[digits.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
    }
    return bytes;
  }

  /** Space-separated lowercase hex, the spec's spelling, so that failures show readable diffs. */
  static String hexOf(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length * 3);
    for (byte b : bytes) {
      if (text.length() > 0) {
        text.append(' ');
      }
      text.append(String.format("%02x", b & 0xff));
    }
    return text.toString();
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] repeat(int value, int count) {
    byte[] bytes = new byte[count];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /**
   * Little-endian bytes of a value, computed here by shifting rather than through netty or
   * {@link ValueSize#write}, so that the tests do not share a byte-order mistake with the code.
   */
  static byte[] le(long value, int width) {
    byte[] bytes = new byte[width];
    for (int i = 0; i < width; i++) {
      bytes[i] = (byte) (value >>> (8 * i));
    }
    return bytes;
  }

  /** Reads back a little-endian u64 from a response, for checks of single fields by offset. */
  static long u64At(byte[] bytes, int offset) {
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = (value << 8) | (bytes[offset + i] & 0xff);
    }
    return value;
  }

  /** Runs a writer into a fresh buffer and returns what it wrote. */
  static byte[] written(Consumer<ByteBuf> writer) {
    ByteBuf out = Unpooled.buffer();
    writer.accept(out);
    byte[] bytes = new byte[out.readableBytes()];
    out.readBytes(bytes);
    return bytes;
  }

  static byte[] encoded(ValueSize size, Request request) {
    return written(out -> RequestEncoder.encode(out, size, request));
  }

  /** Builds a request frame field by field for any value size N. */
  static final class Wire {
    private final ValueSize size;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private Wire(ValueSize size) {
      this.size = size;
    }

    static Wire of(ValueSize size) {
      return new Wire(size);
    }

    Wire u8(int value) {
      out.write(value);
      return this;
    }

    /** An N-byte field. */
    Wire n(long value) {
      out.writeBytes(le(value, size.bytes()));
      return this;
    }

    Wire raw(byte[] bytes) {
      out.writeBytes(bytes);
      return this;
    }

    Wire ascii(String text) {
      return raw(CodecTestKit.ascii(text));
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  // ---------------------------------------------------------------- describing requests

  /**
   * A canonical text for a request (or a decode error): record class, then every component, byte
   * arrays as hex, N-byte values unsigned. Records with array components do not compare their
   * contents in {@code equals}, and comparing text gives readable failures.
   */
  static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof byte[] bytes) {
      return "[" + hexOf(bytes) + "]";
    }
    if (value instanceof Long number) {
      return Long.toUnsignedString(number);
    }
    if (value instanceof Record) {
      StringBuilder text = new StringBuilder(value.getClass().getSimpleName()).append('(');
      RecordComponent[] components = value.getClass().getRecordComponents();
      for (int i = 0; i < components.length; i++) {
        if (i > 0) {
          text.append(", ");
        }
        text.append(components[i].getName()).append('=').append(describe(componentValue(value, components[i])));
      }
      return text.append(')').toString();
    }
    return String.valueOf(value);
  }

  static List<String> describeAll(List<?> values) {
    return values.stream().map(CodecTestKit::describe).collect(Collectors.toList());
  }

  private static Object componentValue(Object record, RecordComponent component) {
    try {
      return component.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------- feeding a decoder

  /** A decoder with a handler that records what it is told, in order. */
  static final class RecordingDecoder implements RequestDecoder.Handler {
    private final List<Object> events = new ArrayList<>();
    private final RequestDecoder decoder;
    private int stopAfter = -1;

    RecordingDecoder(ValueSize size) {
      this(size, MAX_FRAME);
    }

    RecordingDecoder(ValueSize size, int maxFrame) {
      this(size, maxFrame, PartialFrameBudget.unlimited());
    }

    RecordingDecoder(ValueSize size, int maxFrame, PartialFrameBudget budget) {
      this.decoder = new RequestDecoder(size, maxFrame, budget, this);
    }

    @Override
    public boolean onRequest(Request request, int frameLength) {
      events.add(request);
      return requests().size() != stopAfter;
    }

    /** Asks the decoder to stop after the {@code count}th request (counting from the start). */
    RecordingDecoder stopAfter(int count) {
      stopAfter = count;
      return this;
    }

    void resume() {
      decoder.resume();
    }

    int heldBackBytes() {
      return decoder.heldBackBytes();
    }

    @Override
    public void onError(DecodeError error) {
      events.add(error);
    }

    RecordingDecoder feed(Feeding feeding, byte[] stream) {
      feeding.feed(decoder, stream);
      return this;
    }

    RecordingDecoder feedWhole(byte[] stream) {
      return feed(Feeding.whole(), stream);
    }

    int bufferedBytes() {
      return decoder.bufferedBytes();
    }

    int reservedBytes() {
      return decoder.reservedBytes();
    }

    void close() {
      decoder.close();
    }

    /** Requests and errors in the order the handler heard them. */
    List<Object> events() {
      return events;
    }

    List<Request> requests() {
      return events.stream().filter(Request.class::isInstance).map(Request.class::cast).collect(Collectors.toList());
    }

    List<DecodeError> errors() {
      return events.stream().filter(DecodeError.class::isInstance).map(DecodeError.class::cast)
          .collect(Collectors.toList());
    }
  }

  /** Every {@link Feeding}, as a JUnit {@code @MethodSource("io.sluice.protocol.binary.codec.CodecTestKit#everyFeeding")}. */
  static Stream<Feeding> everyFeeding() {
    return Feeding.all().stream();
  }

  /**
   * One way of cutting a byte stream into socket reads. Each read is a fresh buffer with a few junk
   * bytes before its reader index (the decoder must start at the reader index), and is overwritten
   * after the decoder returns, as a reused socket buffer would be: a request that kept a view of
   * the read buffer instead of a copy would then show the junk.
   */
  static final class Feeding {
    private static final int JUNK_BEFORE = 3;
    private static final byte JUNK = (byte) 0xEE;

    private final String name;
    /** Makes, for one stream, a function from "bytes left" to "length of the next read". */
    private final Supplier<IntUnaryOperator> reads;

    private Feeding(String name, Supplier<IntUnaryOperator> reads) {
      this.name = name;
      this.reads = reads;
    }

    static Feeding whole() {
      return new Feeding("whole", () -> remaining -> remaining);
    }

    static Feeding oneByteAtATime() {
      return new Feeding("one byte at a time", () -> remaining -> 1);
    }

    /** Mostly short reads, now and then a long one, so frames split at every kind of place. */
    static Feeding randomChunks(long seed) {
      return new Feeding("random chunks, seed " + seed, () -> {
        Random random = new Random(seed);
        return remaining -> {
          int longest = random.nextInt(4) == 0 ? 700 : 12;
          return 1 + random.nextInt(Math.min(remaining, longest));
        };
      });
    }

    static List<Feeding> all() {
      return List.of(whole(), oneByteAtATime(), randomChunks(1), randomChunks(7), randomChunks(42), randomChunks(2024));
    }

    void feed(RequestDecoder decoder, byte[] stream) {
      IntUnaryOperator nextReadLength = reads.get();
      int offset = 0;
      while (offset < stream.length) {
        int length = Math.min(nextReadLength.applyAsInt(stream.length - offset), stream.length - offset);
        byte[] read = new byte[JUNK_BEFORE + length];
        Arrays.fill(read, 0, JUNK_BEFORE, JUNK);
        System.arraycopy(stream, offset, read, JUNK_BEFORE, length);
        ByteBuf in = Unpooled.wrappedBuffer(read).readerIndex(JUNK_BEFORE);
        decoder.feed(in);
        assertThat(in.isReadable()).as("the decoder consumes every byte it is given").isFalse();
        Arrays.fill(read, JUNK);
        offset += length;
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
