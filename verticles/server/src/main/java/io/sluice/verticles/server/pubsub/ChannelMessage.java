package io.sluice.verticles.server.pubsub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * A message published to a channel, as it travels to every loop ({@link ChannelFanOut}). One instance
 * reaches every subscriber, so its wire forms are made once and shared: encoding a message for
 * each of a thousand subscribers would cost more than sending it.
 *
 * @param publisherId the publishing connection's ID, so its own subscriptions skip the copy it
 *                    already pushed to itself before its status byte; empty when the hub delivers
 *                    to every subscriber, the publisher's own included
 * @param offset      its place in the channel's history (increasing per channel), 0 when the
 *                    channel keeps no history ({@code --channel-history})
 * @param epoch       the history's epoch, which changes when the history is lost; 0 without an offset
 */
public record ChannelMessage(byte[] channel, byte[] payload, byte[] publisherId, long offset, long epoch,
                             Encodings encodings) {

  /** No publisher: every subscriber gets it, the publisher's own subscriptions included. */
  public static final byte[] NO_PUBLISHER = new byte[0];

  public ChannelMessage(byte[] channel, byte[] payload, byte[] publisherId) {
    this(channel, payload, publisherId, 0, 0);
  }

  public ChannelMessage(byte[] channel, byte[] payload, byte[] publisherId, long offset, long epoch) {
    this(channel, payload, publisherId, offset, epoch, new Encodings());
  }

  /** True when it has a place in its channel's history. */
  public boolean kept() {
    return offset > 0;
  }

  /**
   * The Throttr push frame for a value size, made on first use. The returned buffer is a view:
   * each write gets its own duplicate, so readers never disturb each other.
   */
  public ByteBuf pushFrame(ValueSize size) {
    return encodings.pushFrame(size, this).duplicate();
  }

  /** Any other encoding (the JSON text of the WebSocket bridge), made once by {@code encoder}. */
  public String text(Function<ChannelMessage, String> encoder) {
    return encodings.text(encoder, this);
  }

  /**
   * Lazily made encodings, shared by the event loops a message reaches. Two loops may race to make
   * one; both results are equal and read-only, so either may win, but each must be published
   * safely (volatile / atomic), or a loop could see a half-built buffer.
   */
  public static final class Encodings {
    private final AtomicReferenceArray<ByteBuf> frames = new AtomicReferenceArray<>(ValueSize.values().length);
    private volatile String text;

    private ByteBuf pushFrame(ValueSize size, ChannelMessage message) {
      ByteBuf frame = frames.get(size.ordinal());
      if (frame == null) {
        frame = Unpooled.buffer(2 + size.bytes() + message.channel.length + message.payload.length);
        Responses.push(frame, size, message.channel, message.payload);
        frame = Unpooled.unreleasableBuffer(frame.asReadOnly());
        frames.set(size.ordinal(), frame);
      }
      return frame;
    }

    private String text(Function<ChannelMessage, String> encoder, ChannelMessage message) {
      String made = text;
      if (made == null) {
        made = encoder.apply(message);
        text = made;
      }
      return made;
    }
  }
}
