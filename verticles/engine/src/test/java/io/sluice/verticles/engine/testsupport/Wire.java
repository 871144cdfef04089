package io.sluice.verticles.engine.testsupport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.FrameLength;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Hex and frame helpers so tests read like the spec's test vectors (spec §9). */
public final class Wire {

  private static final HexFormat SPACED = HexFormat.ofDelimiter(" ");

  private Wire() {
  }

  /** {@code "01 0a 00"} → bytes; whitespace is ignored. */
  public static byte[] bytes(String hex) {
    return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
  }

  /** Bytes → {@code "01 0a 00"}. */
  public static String hex(byte[] bytes) {
    return SPACED.formatHex(bytes);
  }

  /** The readable bytes of a buffer as spaced hex, without consuming them. */
  public static String hex(ByteBuf buf) {
    return hex(ByteBufUtil.getBytes(buf));
  }

  public static String hex(ByteBuf buf, int from, int to) {
    return hex(ByteBufUtil.getBytes(buf, from, to - from));
  }

  public static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** Parses exactly one whole request frame given in hex. */
  public static Request request(ValueSize size, String hex) {
    byte[] frame = bytes(hex);
    ByteBuf buf = Unpooled.wrappedBuffer(frame);
    long length = FrameLength.of(buf, 0, frame.length, size);
    if (length != frame.length) {
      throw new IllegalArgumentException("not exactly one frame (" + length + " vs " + frame.length + "): " + hex);
    }
    return RequestDecoder.parse(buf, 0, frame.length, size);
  }

  /** Encodes a request to wire bytes. */
  public static byte[] encode(ValueSize size, Request request) {
    ByteBuf out = Unpooled.buffer();
    RequestEncoder.encode(out, size, request);
    return ByteBufUtil.getBytes(out);
  }

  /** Little-endian u64 at an offset. */
  public static long u64(byte[] bytes, int offset) {
    return Unpooled.wrappedBuffer(bytes).getLongLE(offset);
  }
}
