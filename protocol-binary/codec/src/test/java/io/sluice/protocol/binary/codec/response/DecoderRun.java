package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Feeds a stream to a fresh decoder and records what comes out, replies and pushes in one list. */
final class DecoderRun implements ResponseDecoder.Handler {

  final List<Response> messages = new ArrayList<>();
  final List<ResponseDecodeException> errors = new ArrayList<>();
  final ResponseDecoder decoder;

  private DecoderRun(ValueSize size) {
    this.decoder = new ResponseDecoder(size, this);
  }

  static DecoderRun decode(ValueSize size, Consumer<ResponseDecoder> expectations, byte[] stream, Feeding feeding) {
    DecoderRun run = new DecoderRun(size);
    expectations.accept(run.decoder);
    run.feed(stream, feeding);
    return run;
  }

  /** Decodes a stream that must yield exactly one message and no error. */
  static <T extends Response> T decodeOne(ValueSize size, Consumer<ResponseDecoder> expectations, byte[] stream,
      Feeding feeding, Class<T> type) {
    DecoderRun run = decode(size, expectations, stream, feeding);
    assertThat(run.errors).isEmpty();
    assertThat(run.messages).hasSize(1);
    assertThat(run.messages.get(0)).isInstanceOf(type);
    assertThat(run.messages.get(0).raw()).isEqualTo(stream);
    assertThat(run.decoder.bufferedBytes()).isZero();
    return type.cast(run.messages.get(0));
  }

  void feed(byte[] stream, Feeding feeding) {
    for (byte[] chunk : feeding.split(stream)) {
      ByteBuf in = Unpooled.wrappedBuffer(chunk);
      decoder.feed(in);
      assertThat(in.readableBytes()).as("the decoder consumes every byte it is fed").isZero();
    }
  }

  @Override
  public void onResponse(Response response) {
    messages.add(response);
  }

  @Override
  public void onPush(Response.Push push) {
    messages.add(push);
  }

  @Override
  public void onError(ResponseDecodeException error) {
    errors.add(error);
  }
}
