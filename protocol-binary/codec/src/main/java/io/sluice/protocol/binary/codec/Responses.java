package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes responses in wire form (spec §2–§7). Every response starts with a status byte; a pushed
 * message starts with 0x19 instead.
 */
public final class Responses {

  public static final int FAILURE = 0x00;
  public static final int SUCCESS = 0x01;
  public static final int PUSH = 0x19;

  /** The CONNECTION item lists its 18 request counters in this order (spec §6.2). */
  public static final List<RequestType> CONNECTION_COUNTER_ORDER = List.of(
      RequestType.INSERT, RequestType.SET, RequestType.QUERY, RequestType.GET, RequestType.UPDATE,
      RequestType.PURGE, RequestType.LIST, RequestType.INFO, RequestType.STAT, RequestType.STATS,
      RequestType.PUBLISH, RequestType.SUBSCRIBE, RequestType.UNSUBSCRIBE, RequestType.CONNECTIONS,
      RequestType.CONNECTION, RequestType.CHANNELS, RequestType.CHANNEL, RequestType.WHOAMI);

  /** INFO lists its 18 total/per-minute pairs in this, different, order (spec §4). */
  public static final List<RequestType> INFO_COUNTER_ORDER = List.of(
      RequestType.INSERT, RequestType.QUERY, RequestType.UPDATE, RequestType.PURGE, RequestType.GET,
      RequestType.SET, RequestType.LIST, RequestType.INFO, RequestType.STATS, RequestType.STAT,
      RequestType.SUBSCRIBE, RequestType.UNSUBSCRIBE, RequestType.PUBLISH, RequestType.CHANNEL,
      RequestType.CHANNELS, RequestType.WHOAMI, RequestType.CONNECTION, RequestType.CONNECTIONS);

  public static final int INFO_LENGTH = 433;
  public static final int CONNECTION_ITEM_LENGTH = 237;
  public static final int SUBSCRIBER_ITEM_LENGTH = 40;
  public static final int VERSION_LENGTH = 16;

  private Responses() {
  }

  public static void status(ByteBuf out, boolean success) {
    out.writeByte(success ? SUCCESS : FAILURE);
  }

  /** QUERY: {@code 01 | quota:vN | ttl_type | ttl:vN}. */
  public static void query(ByteBuf out, ValueSize size, long quota, int ttlType, long ttl) {
    out.writeByte(SUCCESS);
    size.write(out, quota);
    out.writeByte(ttlType);
    size.write(out, ttl);
  }

  /**
   * GET: {@code 01 | ttl_type | ttl:vN | V:vN | value}. A value longer than V can announce (a check
   * API state under uint8, say) gets {@code 00}, as for a missing key: a cut length would put the
   * client's reading out of step with every later reply.
   */
  public static void get(ByteBuf out, ValueSize size, int ttlType, long ttl, byte[] value) {
    if (!size.fits(value.length)) {
      status(out, false);
      return;
    }
    out.writeByte(SUCCESS);
    out.writeByte(ttlType);
    size.write(out, ttl);
    size.write(out, value.length);
    out.writeBytes(value);
  }

  /** STAT: {@code 01 | reads/min | writes/min | total reads | total writes}, u64 each. */
  public static void stat(ByteBuf out, long readsPerMinute, long writesPerMinute, long totalReads, long totalWrites) {
    out.writeByte(SUCCESS);
    out.writeLongLE(readsPerMinute);
    out.writeLongLE(writesPerMinute);
    out.writeLongLE(totalReads);
    out.writeLongLE(totalWrites);
  }

  public static void whoami(ByteBuf out, byte[] connectionId) {
    out.writeByte(SUCCESS);
    out.writeBytes(connectionId);
  }

  /** The message a subscriber receives: {@code 19 | C | P:vN | channel | payload}. */
  public static void push(ByteBuf out, ValueSize size, byte[] channel, byte[] payload) {
    out.writeByte(PUSH);
    RequestEncoder.channelAndPayload(out, size, channel, payload);
  }

  public static void connection(ByteBuf out, ConnectionItem item) {
    out.writeByte(SUCCESS);
    item.writeTo(out);
  }

  /** CHANNEL: {@code 01 | Q:u64 | Q × 40-byte subscriber}; {@code 00} when nobody is subscribed. */
  public static void channel(ByteBuf out, List<SubscriberItem> subscribers) {
    if (subscribers.isEmpty()) {
      status(out, false);
      return;
    }
    out.writeByte(SUCCESS);
    out.writeLongLE(subscribers.size());
    for (SubscriberItem subscriber : subscribers) {
      subscriber.writeTo(out);
    }
  }

  /** INFO: 433 bytes (spec §4). */
  public static void info(ByteBuf out, InfoSnapshot info) {
    out.writeByte(SUCCESS);
    out.writeLongLE(info.timestampSeconds());
    long total = 0;
    long totalPerMinute = 0;
    for (int code = 0; code < InfoSnapshot.TYPE_SLOTS; code++) {
      total += info.requestTotals()[code];
      totalPerMinute += info.requestsPerMinute()[code];
    }
    out.writeLongLE(total);
    out.writeLongLE(totalPerMinute);
    for (RequestType type : INFO_COUNTER_ORDER) {
      out.writeLongLE(info.requestTotals()[type.code()]);
      out.writeLongLE(info.requestsPerMinute()[type.code()]);
    }
    out.writeLongLE(info.readBytes());
    out.writeLongLE(info.readBytesPerMinute());
    out.writeLongLE(info.writeBytes());
    out.writeLongLE(info.writeBytesPerMinute());
    out.writeLongLE(info.totalKeys());
    out.writeLongLE(info.totalCounters());
    out.writeLongLE(info.totalBuffers());
    out.writeLongLE(info.allocatedCounterBytes());
    out.writeLongLE(info.allocatedBufferBytes());
    out.writeLongLE(info.totalSubscriptions());
    out.writeLongLE(info.totalChannels());
    out.writeLongLE(info.runningSinceNanos());
    out.writeLongLE(info.totalConnections());
    writePadded(out, info.version(), VERSION_LENGTH);
  }

  /** ASCII text, cut at {@code width} bytes and padded with NULs. */
  static void writePadded(ByteBuf out, String text, int width) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    int length = Math.min(bytes.length, width);
    out.writeBytes(bytes, 0, length);
    out.writeZero(width - length);
  }
}
