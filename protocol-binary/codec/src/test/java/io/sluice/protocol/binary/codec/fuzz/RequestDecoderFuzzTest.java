package io.sluice.protocol.binary.codec.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.DecodeError;
import io.sluice.protocol.binary.codec.PartialFrameBudget;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.ValueSize;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Throttr request decoder against any input, at every value size and cut into reads at random:
 * it decodes requests or reports one error, never throws, never holds more than one frame of the
 * maximum, and gives back every reserved byte; and well-formed requests come out as they went in.
 */
class RequestDecoderFuzzTest {

  private static final int MAX_FRAME = 512;

  /** What a decoder reported: the requests re-encoded, and the error if any. */
  private static final class Recorder implements RequestDecoder.Handler {
    final List<Request> requests = new ArrayList<>();
    final int maxFrame;
    DecodeError error;
    int afterError;

    /** @param maxFrame the decoder's own limit: no frame it hands over may be longer */
    Recorder(int maxFrame) {
      this.maxFrame = maxFrame;
    }

    @Override
    public boolean onRequest(Request request, int frameLength) {
      if (error != null) {
        afterError++;
      }
      assertThat(frameLength).isBetween(1, maxFrame);
      requests.add(request);
      return true;
    }

    @Override
    public void onError(DecodeError error) {
      if (this.error != null) {
        afterError++;
      }
      this.error = error;
    }
  }

  @Property
  void anyBytesDecodeOrFailCleanly(@ForAll ValueSize size, @ForAll @Size(max = 2048) byte[] input,
                                   @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 2048) Integer> cuts) {
    PartialFrameBudget budget = new PartialFrameBudget(1 << 20);
    Recorder recorder = new Recorder(MAX_FRAME);
    RequestDecoder decoder = new RequestDecoder(size, MAX_FRAME, budget, recorder);
    feedInPieces(decoder, input, cuts);
    assertThat(recorder.afterError).as("nothing after an error").isZero();
    assertThat(decoder.bufferedBytes()).isLessThanOrEqualTo(MAX_FRAME);
    decoder.close();
    assertThat(budget.held()).as("every reserved byte given back").isZero();
  }

  @Property
  void wellFormedRequestsComeOutAsTheyWentIn(@ForAll ValueSize size,
                                             @ForAll("requests") List<Request> requests,
                                             @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 4096) Integer> cuts) {
    byte[] wire = encode(size, requests);
    Recorder recorder = new Recorder(1 << 16);
    RequestDecoder decoder = new RequestDecoder(size, 1 << 16, recorder);
    feedInPieces(decoder, wire, cuts);
    assertThat(recorder.error).isNull();
    assertThat(encode(size, recorder.requests)).isEqualTo(wire);
  }

  @Provide
  Arbitrary<List<Request>> requests() {
    Arbitrary<byte[]> keys = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(255);
    Arbitrary<byte[]> values = Arbitraries.bytes().array(byte[].class).ofMaxSize(255);
    // Values up to 255 fit every value size; quotas and TTLs too.
    Arbitrary<Long> numbers = Arbitraries.longs().between(0, 255);
    Arbitrary<Integer> ttlTypes = Arbitraries.integers().between(0, 6);
    Arbitrary<Request> one = Arbitraries.oneOf(
        Combinators.combine(numbers, ttlTypes, numbers, keys).as(Request.Insert::new),
        keys.map(Request.Query::new),
        keys.map(Request.Purge::new),
        keys.map(Request.Get::new),
        Combinators.combine(ttlTypes, numbers, keys, values).as(Request.Set::new),
        keys.map(Request.Subscribe::new));
    return one.list().ofMaxSize(20);
  }

  private static void feedInPieces(RequestDecoder decoder, byte[] input, List<Integer> cuts) {
    int[] points = cuts.stream().mapToInt(c -> Math.min(c, input.length)).sorted().toArray();
    int from = 0;
    for (int point : points) {
      feed(decoder, Arrays.copyOfRange(input, from, point));
      from = point;
    }
    feed(decoder, Arrays.copyOfRange(input, from, input.length));
  }

  private static void feed(RequestDecoder decoder, byte[] piece) {
    ByteBuf buffer = Unpooled.wrappedBuffer(piece);
    decoder.feed(buffer);
    assertThat(buffer.readableBytes()).as("every byte consumed").isZero();
  }

  private static byte[] encode(ValueSize size, List<Request> requests) {
    ByteBuf out = Unpooled.buffer();
    requests.forEach(request -> RequestEncoder.encode(out, size, request));
    byte[] bytes = new byte[out.readableBytes()];
    out.readBytes(bytes);
    return bytes;
  }
}
