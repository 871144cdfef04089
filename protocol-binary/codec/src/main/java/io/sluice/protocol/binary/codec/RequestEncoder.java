package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

/** Writes requests in wire form (clients, the bench tool, tests). The inverse of {@link RequestDecoder}. */
public final class RequestEncoder {

  private RequestEncoder() {
  }

  public static void encode(ByteBuf out, ValueSize size, Request request) {
    out.writeByte(request.type().code());
    if (request instanceof Request.Insert insert) {
      size.write(out, insert.quota());
      out.writeByte(insert.ttlType());
      size.write(out, insert.ttl());
      shortField(out, insert.key());
    } else if (request instanceof Request.Update update) {
      out.writeByte(update.attribute());
      out.writeByte(update.change());
      size.write(out, update.value());
      shortField(out, update.key());
    } else if (request instanceof Request.Set set) {
      out.writeByte(set.ttlType());
      size.write(out, set.ttl());
      out.writeByte(set.key().length);
      writeLength(out, size, set.value().length);
      out.writeBytes(set.key());
      out.writeBytes(set.value());
    } else if (request instanceof Request.Publish publish) {
      channelAndPayload(out, size, publish.channel(), publish.payload());
    } else if (request instanceof Request.Event event) {
      channelAndPayload(out, size, event.channel(), event.payload());
    } else if (request instanceof Request.Connection connection) {
      byte[] id = connection.id();
      if (id.length != 16) {
        throw new IllegalArgumentException("a connection ID is 16 bytes, not " + id.length);
      }
      out.writeBytes(id);
    } else if (request instanceof Request.KeyRequest keyed) {
      shortField(out, keyed.key());
    } else if (request instanceof Request.Subscribe subscribe) {
      shortField(out, subscribe.channel());
    } else if (request instanceof Request.Unsubscribe unsubscribe) {
      shortField(out, unsubscribe.channel());
    } else if (request instanceof Request.Channel channel) {
      shortField(out, channel.channel());
    }
  }

  /** Writes {@code 19 | C | P:vN | channel | payload}: the PUBLISH/EVENT body and the pushed message. */
  public static void channelAndPayload(ByteBuf out, ValueSize size, byte[] channel, byte[] payload) {
    if (channel.length > 255) {
      throw new IllegalArgumentException("channels are at most 255 bytes, not " + channel.length);
    }
    out.writeByte(channel.length);
    writeLength(out, size, payload.length);
    out.writeBytes(channel);
    out.writeBytes(payload);
  }

  /** A length that does not fit N bytes would be cut and put the stream out of step: refuse it. */
  private static void writeLength(ByteBuf out, ValueSize size, int length) {
    if (!size.fits(length)) {
      throw new IllegalArgumentException("a length of " + length + " does not fit " + size.label());
    }
    size.write(out, length);
  }

  private static void shortField(ByteBuf out, byte[] bytes) {
    if (bytes.length > 255) {
      throw new IllegalArgumentException("keys and channels are at most 255 bytes, not " + bytes.length);
    }
    out.writeByte(bytes.length);
    out.writeBytes(bytes);
  }
}
