package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.ValueSize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.sluice.protocol.binary.codec.response.Bytes.concat;
import static io.sluice.protocol.binary.codec.response.Bytes.hex;
import static io.sluice.protocol.binary.codec.response.Bytes.u64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the decoder treats the stream as a whole: matching by position, partial input, broken input. */
class ResponseDecoderStreamTest {

  private static final ValueSize N2 = ValueSize.UINT16;

  static Stream<Feeding> feedings() {
    return Feeding.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("feedings")
  void aLongMixedStreamKeepsEveryBoundary(Feeding feeding) {
    List<RequestType> sent = List.of(RequestType.QUERY, RequestType.GET, RequestType.LIST, RequestType.STAT,
        RequestType.QUERY, RequestType.CHANNEL, RequestType.PUBLISH, RequestType.WHOAMI, RequestType.CHANNELS,
        RequestType.GET);
    List<byte[]> wire = List.of(
        hex("01 0a 00 04 3b 00"),
        hex("01 04 1d 00 04 00 45 48 4c 4f"),
        hex("01 01 00*7 01 00*7 01 00*7 03 00 04 00*8 02 00 61 62 63"),
        hex("19 01 02 00 2a 68 69"),
        hex("00"),
        hex("00"),
        hex("01 01 00*7 00*40"),
        hex("19 01 01 00 2a 21"),
        hex("01"),
        hex("01 00*16"),
        hex("01 00*8"),
        hex("01 05 3b 00 00 00"));
    byte[] stream = concat(wire.toArray(byte[][]::new));
    DecoderRun run = DecoderRun.decode(N2, decoder -> sent.forEach(decoder::expect), stream, feeding);

    assertThat(run.errors).isEmpty();
    assertThat(run.messages).extracting(message -> ByteBufUtil.hexDump(message.raw()))
        .containsExactlyElementsOf(wire.stream().map(ByteBufUtil::hexDump).toList());
    assertThat(run.messages).extracting(message -> message.getClass().getSimpleName()).containsExactly(
        "QueryResult", "GetResult", "KeyList", "Push", "Status", "Status", "ChannelSubscribers", "Push", "Status",
        "WhoAmI", "ChannelList", "GetResult");
  }

  @Test
  void anIncompleteReplyIsHeldUntilTheRestArrives() {
    DecoderRun run = DecoderRun.decode(N2, decoder -> decoder.expect(RequestType.GET), hex("01 04 1d 00 04 00 45"),
        Feeding.WHOLE);
    assertThat(run.messages).isEmpty();
    assertThat(run.decoder.bufferedBytes()).isEqualTo(7);
    assertThat(run.decoder.expectedCount()).isEqualTo(1);

    run.feed(hex("48 4c 4f"), Feeding.WHOLE);
    assertThat(run.messages).singleElement().isInstanceOf(Response.GetResult.class);
    assertThat(run.decoder.bufferedBytes()).isZero();
    assertThat(run.decoder.expectedCount()).isZero();
  }

  @Test
  void aRequestRegisteredWhileAReplyIsHandledMatchesTheNextReplyOfTheSameChunk() {
    // A client completes a future inside onResponse, and that future's callback may send again.
    List<Response> seen = new ArrayList<>();
    ResponseDecoder[] decoder = new ResponseDecoder[1];
    decoder[0] = new ResponseDecoder(N2, new ResponseDecoder.Handler() {
      public void onResponse(Response response) {
        seen.add(response);
        if (seen.size() == 1) {
          decoder[0].expect(RequestType.QUERY);
        }
      }

      public void onPush(Response.Push push) {
        seen.add(push);
      }

      public void onError(ResponseDecodeException error) {
        throw error;
      }
    });
    decoder[0].expect(RequestType.INSERT);
    decoder[0].feed(Unpooled.wrappedBuffer(hex("01 01 0a 00 04 3b 00")));
    assertThat(seen).extracting(message -> message.getClass().getSimpleName())
        .containsExactly("Status", "QueryResult");
  }

  @Test
  void aReplyNobodyAskedForStopsTheDecoder() {
    DecoderRun run = DecoderRun.decode(N2, decoder -> { }, hex("01"), Feeding.WHOLE);
    assertThat(run.errors).singleElement().extracting(Throwable::getMessage).asString()
        .contains("no request is waiting");
    assertThat(run.messages).isEmpty();
  }

  @Test
  void aByteThatStartsNoReplyStopsTheDecoderAndLaterInputIsIgnored() {
    DecoderRun run = DecoderRun.decode(N2, decoder -> {
      decoder.expect(RequestType.QUERY);
      decoder.expect(RequestType.INSERT);
    }, hex("02 01"), Feeding.WHOLE);
    assertThat(run.errors).singleElement().extracting(Throwable::getMessage).asString()
        .contains("QUERY").contains("0x02");

    run.feed(hex("01 01"), Feeding.WHOLE);
    assertThat(run.messages).isEmpty();
    assertThat(run.errors).hasSize(1);
    assertThat(run.decoder.bufferedBytes()).isZero();
  }

  @Test
  void anEventInnerReplyMustAlsoStartWithAStatusByte() {
    DecoderRun run = DecoderRun.decode(N2, decoder -> decoder.expectEvent(RequestType.QUERY), hex("01 19"),
        Feeding.WHOLE);
    assertThat(run.errors).singleElement().extracting(Throwable::getMessage).asString().contains("0x19");
  }

  @Test
  void lengthsBeyondTwoGigabytesAreRefusedRatherThanAwaited() {
    DecoderRun get = DecoderRun.decode(ValueSize.UINT64, decoder -> decoder.expect(RequestType.GET),
        concat(hex("01 04"), u64(1), u64(Long.MIN_VALUE)), Feeding.WHOLE);
    assertThat(get.errors).hasSize(1);

    DecoderRun channel = DecoderRun.decode(N2, decoder -> decoder.expect(RequestType.CHANNEL),
        concat(hex("01"), u64(1L << 40)), Feeding.WHOLE);
    assertThat(channel.errors).hasSize(1);

    DecoderRun list = DecoderRun.decode(N2, decoder -> decoder.expect(RequestType.LIST),
        concat(hex("01"), u64(1), u64(1), u64(-1)), Feeding.WHOLE);
    assertThat(list.errors).hasSize(1);

    DecoderRun push = DecoderRun.decode(ValueSize.UINT32, decoder -> { }, hex("19 01 ff ff ff ff"), Feeding.WHOLE);
    assertThat(push.errors).hasSize(1);
  }

  @Test
  void eventRepliesCannotBeRegisteredByTypeAlone() {
    ResponseDecoder decoder = new ResponseDecoder(N2, new DecoderRunStub());
    assertThatThrownBy(() -> decoder.expect(RequestType.EVENT)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> decoder.expectEvent(RequestType.EVENT)).isInstanceOf(IllegalArgumentException.class);
    assertThat(decoder.expectedCount()).isZero();
  }

  /** A handler for tests that never feed. */
  private static final class DecoderRunStub implements ResponseDecoder.Handler {
    public void onResponse(Response response) {
      throw new AssertionError("no reply expected");
    }

    public void onPush(Response.Push push) {
      throw new AssertionError("no push expected");
    }

    public void onError(ResponseDecodeException error) {
      throw new AssertionError("no error expected", error);
    }
  }
}
