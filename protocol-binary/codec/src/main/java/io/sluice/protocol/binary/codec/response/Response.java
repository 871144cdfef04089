package io.sluice.protocol.binary.codec.response;

import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.protocol.binary.codec.TtlUnit;

import java.util.List;

/**
 * One decoded server message, as a client sees it (spec §2–§7). Every variant keeps the exact bytes
 * it was decoded from in {@link #raw()}, status byte included, so callers can compare with captures.
 *
 * <p>A failure reply is the single byte {@code 00} whatever the request, so it always decodes to
 * {@code Status(false)}: a missing key for QUERY, GET or STAT, an unknown ID for CONNECTION and a
 * channel without subscribers for CHANNEL all look alike. The richer variants only ever carry a
 * success.
 *
 * <p>Unsigned N-byte and u64 fields are held in a {@code long}; compare uint64 values with
 * {@link Long#compareUnsigned}. TTL types are the raw byte, since the server echoes bytes outside
 * 1..6 unchanged.
 */
public sealed interface Response {

  /** The message exactly as it came off the wire. */
  byte[] raw();

  /** The one-byte reply: INSERT, UPDATE, PURGE, SET, SUBSCRIBE, UNSUBSCRIBE, PUBLISH, and every failure. */
  record Status(boolean ok, byte[] raw) implements Response {
  }

  /** QUERY: {@code 01 | quota:vN | ttl_type | ttl:vN}. */
  record QueryResult(long quota, int ttlType, long ttl, byte[] raw) implements Response {
    /** The TTL unit, or {@code null} when the stored type byte names none. */
    public TtlUnit ttlUnit() {
      return TtlUnit.ofCode(ttlType);
    }
  }

  /** GET: {@code 01 | ttl_type | ttl:vN | V:vN | value}. */
  record GetResult(int ttlType, long ttl, byte[] value, byte[] raw) implements Response {
    /** The TTL unit, or {@code null} when the stored type byte names none. */
    public TtlUnit ttlUnit() {
      return TtlUnit.ofCode(ttlType);
    }
  }

  /** STAT: four u64 record metrics (spec §5). */
  record StatResult(long readsPerMinute, long writesPerMinute, long totalReads, long totalWrites, byte[] raw)
      implements Response {
  }

  /** WHOAMI: the 16-byte ID the server gave this connection. */
  record WhoAmI(byte[] id, byte[] raw) implements Response {
  }

  /**
   * INFO (spec §4). The two overall request totals are kept apart from {@code figures} because they
   * also count EVENT and unknown inner types, which the 18 per-type pairs do not show.
   *
   * @param figures per-type counters indexed by type code (types INFO does not report stay 0)
   */
  record Info(long totalRequests, long totalRequestsPerMinute, InfoSnapshot figures, byte[] raw) implements Response {
    public long requestTotal(RequestType type) {
      return figures.requestTotals()[type.code()];
    }

    public long requestsPerMinute(RequestType type) {
      return figures.requestsPerMinute()[type.code()];
    }
  }

  /** CONNECTION: one 237-byte item. */
  record Connection(ConnectionItem item, byte[] raw) implements Response {
  }

  /** LIST, all fragments joined in order. */
  record KeyList(List<Listing.KeyItem> keys, int fragments, byte[] raw) implements Response {
  }

  /** STATS, all fragments joined in order. */
  record KeyStatsList(List<Listing.KeyStatsItem> keys, int fragments, byte[] raw) implements Response {
  }

  /** CONNECTIONS, all fragments joined in order. */
  record ConnectionList(List<ConnectionItem> connections, int fragments, byte[] raw) implements Response {
  }

  /** CHANNELS, all fragments joined in order. */
  record ChannelList(List<Listing.ChannelItem> channels, int fragments, byte[] raw) implements Response {
  }

  /** CHANNEL: {@code 01 | Q:u64 | Q × 40-byte subscriber}. */
  record ChannelSubscribers(List<SubscriberItem> subscribers, byte[] raw) implements Response {
  }

  /** EVENT: {@code 01} followed by the reply to the request carried in the payload (spec §2.12). */
  record EventResult(Response inner, byte[] raw) implements Response {
  }

  /**
   * A pushed pub/sub message {@code 19 | C | P:vN | channel | payload} (spec §7.2). It answers no
   * request of this connection, so it never takes a reply's place in the queue.
   */
  record Push(byte[] channel, byte[] payload, byte[] raw) implements Response {
  }
}
