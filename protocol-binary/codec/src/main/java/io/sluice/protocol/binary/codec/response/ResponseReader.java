package io.sluice.protocol.binary.codec.response;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.FrameLength;
import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Works out how long a reply is and turns a complete one into a {@link Response}, for one value
 * size. Lengths follow the Java SDK's parsers (spec §10): a wrong length desynchronises every
 * later reply, so each size here is the one the spec gives for a success.
 */
final class ResponseReader {

  /** Longest reply accepted: the frame is held in one buffer indexed by int. */
  static final long MAX_LENGTH = Integer.MAX_VALUE - 64;

  private static final int STAT_LENGTH = 33;
  private static final int WHOAMI_LENGTH = 17;
  private static final int ID_LENGTH = 16;
  private static final int CHANNEL_HEADER = 9;
  private static final int KEY_STATS_ITEM_LENGTH = 33;
  private static final int CHANNELS_ITEM_LENGTH = 25;

  private final ValueSize size;
  private final int n;
  private final ListingFormat<Listing.KeyItem> keyListing;
  private final ListingFormat<Listing.KeyStatsItem> keyStatsListing;
  private final ListingFormat<ConnectionItem> connectionListing;
  private final ListingFormat<Listing.ChannelItem> channelListing;

  ResponseReader(ValueSize size) {
    this.size = size;
    this.n = size.bytes();
    this.keyListing = new ListingFormat<>(11 + n, true, this::readKeyItem);
    this.keyStatsListing = new ListingFormat<>(KEY_STATS_ITEM_LENGTH, true, ResponseReader::readKeyStatsItem);
    this.connectionListing = new ListingFormat<>(
        Responses.CONNECTION_ITEM_LENGTH, false, (header, name) -> readConnectionItem(header));
    this.channelListing = new ListingFormat<>(CHANNELS_ITEM_LENGTH, true, ResponseReader::readChannelItem);
  }

  static long checkedLength(long length) {
    if (length < 0 || length > MAX_LENGTH) {
      throw new ResponseDecodeException("a reply claims " + Long.toUnsignedString(length) + " bytes");
    }
    return length;
  }

  /**
   * The length of the reply at {@code start} if the bytes seen so far settle it, otherwise a lower
   * bound larger than {@code readable}. {@code readable} is at least 1.
   */
  long replyLength(ByteBuf buf, int start, int readable, ExpectedReply expected) {
    int status = buf.getUnsignedByte(start);
    if (status == Responses.FAILURE) {
      return 1;
    }
    if (status != Responses.SUCCESS) {
      throw new ResponseDecodeException(String.format(
          "the reply to %s must start with 00 or 01, not 0x%02x", describe(expected), status));
    }
    if (expected.type() == null) {
      return 1;
    }
    switch (expected.type()) {
      case QUERY:
        return 2 + 2 * n;
      case GET: {
        int header = 2 + 2 * n;
        return readable < header ? header : checkedLength(header + size.get(buf, start + 2 + n));
      }
      case STAT:
        return STAT_LENGTH;
      case WHOAMI:
        return WHOAMI_LENGTH;
      case INFO:
        return Responses.INFO_LENGTH;
      case CONNECTION:
        return 1 + Responses.CONNECTION_ITEM_LENGTH;
      case CHANNEL: {
        if (readable < CHANNEL_HEADER) {
          return CHANNEL_HEADER;
        }
        long subscribers = buf.getLongLE(start + 1);
        if (subscribers < 0 || subscribers > MAX_LENGTH / Responses.SUBSCRIBER_ITEM_LENGTH) {
          throw new ResponseDecodeException("CHANNEL claims " + Long.toUnsignedString(subscribers) + " subscribers");
        }
        return checkedLength(CHANNEL_HEADER + subscribers * Responses.SUBSCRIBER_ITEM_LENGTH);
      }
      case LIST:
        return keyListing.length(buf, start, readable);
      case STATS:
        return keyStatsListing.length(buf, start, readable);
      case CONNECTIONS:
        return connectionListing.length(buf, start, readable);
      case CHANNELS:
        return channelListing.length(buf, start, readable);
      case EVENT:
        return readable < 2 ? 2 : 1 + replyLength(buf, start + 1, readable - 1, expected.eventInner());
      default:
        return 1;
    }
  }

  /** Reads a complete reply: {@code frame} holds exactly its bytes, from index 0. */
  Response readReply(ByteBuf frame, ExpectedReply expected) {
    byte[] raw = ByteBufUtil.getBytes(frame);
    boolean success = frame.getUnsignedByte(0) == Responses.SUCCESS;
    if (!success || expected.type() == null) {
      return new Response.Status(success, raw);
    }
    switch (expected.type()) {
      case QUERY:
        return new Response.QueryResult(size.get(frame, 1), frame.getUnsignedByte(1 + n), size.get(frame, 2 + n), raw);
      case GET: {
        int valueLength = (int) size.get(frame, 2 + n);
        byte[] value = ByteBufUtil.getBytes(frame, 2 + 2 * n, valueLength);
        return new Response.GetResult(frame.getUnsignedByte(1), size.get(frame, 2), value, raw);
      }
      case STAT:
        return new Response.StatResult(
            frame.getLongLE(1), frame.getLongLE(9), frame.getLongLE(17), frame.getLongLE(25), raw);
      case WHOAMI:
        return new Response.WhoAmI(ByteBufUtil.getBytes(frame, 1, ID_LENGTH), raw);
      case INFO:
        return readInfo(frame.slice(1, Responses.INFO_LENGTH - 1), raw);
      case CONNECTION:
        return new Response.Connection(readConnectionItem(frame.slice(1, Responses.CONNECTION_ITEM_LENGTH)), raw);
      case CHANNEL:
        return new Response.ChannelSubscribers(readSubscribers(frame), raw);
      case LIST: {
        ListingFormat.Items<Listing.KeyItem> listed = keyListing.read(frame);
        return new Response.KeyList(listed.items(), listed.fragments(), raw);
      }
      case STATS: {
        ListingFormat.Items<Listing.KeyStatsItem> listed = keyStatsListing.read(frame);
        return new Response.KeyStatsList(listed.items(), listed.fragments(), raw);
      }
      case CONNECTIONS: {
        ListingFormat.Items<ConnectionItem> listed = connectionListing.read(frame);
        return new Response.ConnectionList(listed.items(), listed.fragments(), raw);
      }
      case CHANNELS: {
        ListingFormat.Items<Listing.ChannelItem> listed = channelListing.read(frame);
        return new Response.ChannelList(listed.items(), listed.fragments(), raw);
      }
      case EVENT: {
        ByteBuf inner = frame.slice(1, frame.readableBytes() - 1);
        return new Response.EventResult(readReply(inner, expected.eventInner()), raw);
      }
      default:
        return new Response.Status(true, raw);
    }
  }

  /**
   * A push has the layout of an EVENT request (spec §7.2), so the request codec measures and
   * parses it. Returns the length, or a lower bound larger than {@code readable}.
   */
  long pushLength(ByteBuf buf, int start, int readable) {
    long length = FrameLength.of(buf, start, readable, size);
    if (length == FrameLength.NEED_MORE) {
      return 2 + n;
    }
    return checkedLength(length);
  }

  Response.Push readPush(ByteBuf frame) {
    Request.Publish message = RequestDecoder.publishLayout(frame, 0, size);
    return new Response.Push(message.channel(), message.payload(), ByteBufUtil.getBytes(frame));
  }

  private List<SubscriberItem> readSubscribers(ByteBuf frame) {
    int count = (int) frame.getLongLE(1);
    List<SubscriberItem> subscribers = new ArrayList<>(count);
    ByteBuf in = frame.slice(CHANNEL_HEADER, count * Responses.SUBSCRIBER_ITEM_LENGTH);
    for (int i = 0; i < count; i++) {
      subscribers.add(new SubscriberItem(readBytes(in, ID_LENGTH), in.readLongLE(), in.readLongLE(), in.readLongLE()));
    }
    return subscribers;
  }

  private static Response.Info readInfo(ByteBuf in, byte[] raw) {
    long timestampSeconds = in.readLongLE();
    long totalRequests = in.readLongLE();
    long totalRequestsPerMinute = in.readLongLE();
    long[] totals = new long[InfoSnapshot.TYPE_SLOTS];
    long[] perMinute = new long[InfoSnapshot.TYPE_SLOTS];
    for (RequestType type : Responses.INFO_COUNTER_ORDER) {
      totals[type.code()] = in.readLongLE();
      perMinute[type.code()] = in.readLongLE();
    }
    InfoSnapshot figures = new InfoSnapshot(timestampSeconds, totals, perMinute,
        in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
        in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
        in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
        readPaddedText(in, Responses.VERSION_LENGTH));
    return new Response.Info(totalRequests, totalRequestsPerMinute, figures, raw);
  }

  /** The 237-byte item of spec §6.2. */
  private static ConnectionItem readConnectionItem(ByteBuf in) {
    byte[] id = readBytes(in, ID_LENGTH);
    int type = in.readUnsignedByte();
    int kind = in.readUnsignedByte();
    in.skipBytes(1); // IP version: ConnectionItem derives it from the address text
    String ip = readPaddedText(in, 16);
    int port = in.readUnsignedShortLE();
    long connectedAtNanos = in.readLongLE();
    long readBytes = in.readLongLE();
    long writeBytes = in.readLongLE();
    long publishedBytes = in.readLongLE();
    long receivedBytes = in.readLongLE();
    in.skipBytes(16); // allocated and consumed bytes: always 0, and ConnectionItem has no place for them
    long[] requestCounts = new long[InfoSnapshot.TYPE_SLOTS];
    for (RequestType counted : Responses.CONNECTION_COUNTER_ORDER) {
      requestCounts[counted.code()] = in.readLongLE();
    }
    return new ConnectionItem(id, type, kind, ip, port, connectedAtNanos, readBytes, writeBytes,
        publishedBytes, receivedBytes, requestCounts);
  }

  /** {@code K | key type | ttl type | expires_at:u64 | bytes used:vN}. */
  private Listing.KeyItem readKeyItem(ByteBuf header, byte[] key) {
    return new Listing.KeyItem(key, header.getUnsignedByte(1), header.getUnsignedByte(2), header.getLongLE(3),
        size.get(header, 11));
  }

  /** {@code K | reads/min | writes/min | total reads | total writes}. */
  private static Listing.KeyStatsItem readKeyStatsItem(ByteBuf header, byte[] key) {
    return new Listing.KeyStatsItem(key, header.getLongLE(1), header.getLongLE(9), header.getLongLE(17),
        header.getLongLE(25));
  }

  /** {@code C | read bytes | write bytes | subscriptions:u64}. */
  private static Listing.ChannelItem readChannelItem(ByteBuf header, byte[] channel) {
    return new Listing.ChannelItem(channel, header.getLongLE(1), header.getLongLE(9), header.getLongLE(17));
  }

  private static byte[] readBytes(ByteBuf in, int length) {
    byte[] bytes = new byte[length];
    in.readBytes(bytes);
    return bytes;
  }

  /** ASCII text NUL-padded to a fixed width. */
  private static String readPaddedText(ByteBuf in, int width) {
    byte[] field = readBytes(in, width);
    int length = 0;
    while (length < width && field[length] != 0) {
      length++;
    }
    return new String(field, 0, length, StandardCharsets.US_ASCII);
  }

  private static String describe(ExpectedReply expected) {
    return expected.type() == null ? "an EVENT whose payload holds no known request" : expected.type().toString();
  }
}
