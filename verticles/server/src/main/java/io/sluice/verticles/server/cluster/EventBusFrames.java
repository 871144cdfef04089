package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Checks one frame of Vert.x 5's clustered event bus before Vert.x reads it. Vert.x trusts every
 * length field it reads: it allocates a frame's declared length, and an array of each string's or
 * body's declared length, before comparing them with the bytes it has. So every length of the frame
 * is checked here against the bytes the frame really holds, and only the codecs the nodes send each
 * other are let through (never Java serialization).
 *
 * <p>The layout (big-endian, as Vert.x's {@code ClusteredMessage} writes it): length of the rest,
 * protocol version, codec id (-1: a named codec, then its name), send or publish, address, reply
 * address (length 0: none), sender, headers (their byte length, itself included, then their count
 * and key/value strings when there are any), body.
 */
final class EventBusFrames {

  /**
   * The largest frame a node accepts: a partition handoff or a backup's seed carries the whole
   * partition in one message, so this bounds a partition at about 5 million records of 50 bytes.
   */
  static final int MAX_FRAME_BYTES = 256 << 20;
  /** The frame length field, excluded from the length it carries. */
  static final int LENGTH_FIELD_BYTES = 4;
  private static final int WIRE_PROTOCOL_VERSION = 2;
  private static final int NAMED_CODEC = -1;
  /** The channel messages' codec ({@code ChannelMessageCodec}): channel, payload, publisher. */
  private static final String CHANNEL_CODEC = "sluice.channel-message";
  private static final int CHANNEL_FIELDS = 3;
  private static final int REPLY_EXCEPTION = 15;
  /**
   * By Vert.x 5's system codec id (each codec's {@code systemCodecID()}): the bytes a fixed-size
   * body holds, or {@link #PREFIXED} for a body that is one length-prefixed field.
   * Ids 16 and 17 (cluster-serializable and Java-serializable objects) are refused.
   */
  private static final int PREFIXED = -1;
  private static final int[] SYSTEM_BODIES = {
      0, 0, // null, ping
      1, 1, 2, 4, 8, 4, 8, // byte, boolean, short, int, long, float, double
      PREFIXED, 2, // string, char
      PREFIXED, PREFIXED, PREFIXED, PREFIXED}; // buffer, byte array, JSON object, JSON array

  private EventBusFrames() {
  }

  /**
   * Why the frame (from its length field to its end, as a frame decoder cut it) may not be read,
   * or null when every field fits in it.
   */
  static String refusal(ByteBuf frame) {
    Cursor at = new Cursor(frame, frame.readerIndex() + LENGTH_FIELD_BYTES, frame.writerIndex());
    try {
      int version = at.take(1);
      if (version > WIRE_PROTOCOL_VERSION) {
        return "wire protocol version " + version;
      }
      int codec = at.take(1);
      String named = codec == NAMED_CODEC ? at.string() : null;
      at.take(1);
      at.skipPrefixed();
      at.skipPrefixed();
      at.skipPrefixed();
      at.skipHeaders();
      if (named != null) {
        return CHANNEL_CODEC.equals(named) ? at.skipFields(CHANNEL_FIELDS) : "codec " + named;
      }
      if (codec == REPLY_EXCEPTION) {
        at.skip(5);
        return at.take(1) == 0 ? null : at.skipFields(1);
      }
      if (codec < 0 || codec >= SYSTEM_BODIES.length) {
        return "codec " + codec;
      }
      return SYSTEM_BODIES[codec] == PREFIXED ? at.skipFields(1) : at.skip(SYSTEM_BODIES[codec]);
    } catch (IndexOutOfBoundsException beyond) {
      return "a field longer than the frame";
    }
  }

  /** Reads a frame's fields, never past its end: a field that does not fit throws. */
  private static final class Cursor {
    private final ByteBuf frame;
    private final int end;
    private int position;

    Cursor(ByteBuf frame, int position, int end) {
      this.frame = frame;
      this.position = position;
      this.end = end;
    }

    int take(int bytes) {
      fits(bytes);
      int value = frame.getByte(position);
      position += bytes;
      return value;
    }

    String skip(int bytes) {
      fits(bytes);
      position += bytes;
      return null;
    }

    int integer() {
      fits(4);
      int value = frame.getInt(position);
      position += 4;
      return value;
    }

    int length() {
      int length = integer();
      if (length < 0) {
        throw new IndexOutOfBoundsException("negative length");
      }
      fits(length);
      return length;
    }

    void skipPrefixed() {
      int length = length();
      position += length;
    }

    String string() {
      int length = length();
      String text = frame.toString(position, length, StandardCharsets.UTF_8);
      position += length;
      return text;
    }

    String skipFields(int fields) {
      for (int i = 0; i < fields; i++) {
        skipPrefixed();
      }
      return null;
    }

    /** The headers' length counts its own 4 bytes; 4 means none. */
    void skipHeaders() {
      fits(4);
      int length = frame.getInt(position);
      if (length < 4) {
        throw new IndexOutOfBoundsException("headers of " + length + " bytes");
      }
      fits(length);
      int headersEnd = position + length;
      position += 4;
      if (length > 4) {
        Cursor headers = new Cursor(frame, position, headersEnd);
        int count = headers.integer();
        for (int i = 0; i < count; i++) {
          headers.skipFields(2);
        }
      }
      position = headersEnd;
    }

    private void fits(int bytes) {
      if (bytes < 0 || bytes > end - position) {
        throw new IndexOutOfBoundsException(bytes + " bytes at " + position + " of " + end);
      }
    }
  }
}
