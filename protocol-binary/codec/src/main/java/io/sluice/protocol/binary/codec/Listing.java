package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * The fragmented envelope shared by LIST, STATS, CONNECTIONS and CHANNELS (spec §3):
 * {@code 01 | P:u64 | P × (index:u64 | Q:u64 | Q item headers | Q names)}. A fragment closes when
 * the next item's estimated size would take it over 2048 bytes; each listing estimates its items
 * its own way, exactly as the reference does, so fragment boundaries match it.
 */
public final class Listing {

  static final int FRAGMENT_BUDGET = 2048;

  /** How one kind of listing item is written and counted. */
  public interface ItemFormat<T> {
    /** The reference's size estimate for cutting fragments. */
    int estimatedSize(T item);

    void writeHeader(ByteBuf out, T item);

    /** The name written after all headers of the fragment; empty for connections. */
    byte[] name(T item);

    /**
     * Whether the item can be written at all. A key's length is one byte: a longer key (a UDP key
     * can have 1,000 bytes) would desynchronise the listing, so it is left out.
     */
    default boolean listable(T item) {
      return name(item).length <= MAX_NAME_LENGTH;
    }
  }

  /** Names (keys, channels) in a listing carry a one-byte length. */
  static final int MAX_NAME_LENGTH = 255;

  private Listing() {
  }

  public static <T> void write(ByteBuf out, List<? extends T> all, ItemFormat<T> format) {
    List<? extends T> items = all.stream().allMatch(format::listable)
        ? all : all.stream().filter(format::listable).toList();
    out.writeByte(Responses.SUCCESS);
    int fragmentCountIndex = out.writerIndex();
    out.writeLongLE(0);
    long fragments = 0;
    int from = 0;
    while (from < items.size()) {
      int to = from;
      int budget = 0;
      do {
        budget += format.estimatedSize(items.get(to));
        to++;
      } while (to < items.size() && budget + format.estimatedSize(items.get(to)) <= FRAGMENT_BUDGET);
      fragments++;
      out.writeLongLE(fragments);
      out.writeLongLE(to - from);
      for (int i = from; i < to; i++) {
        format.writeHeader(out, items.get(i));
      }
      for (int i = from; i < to; i++) {
        out.writeBytes(format.name(items.get(i)));
      }
      from = to;
    }
    out.setLongLE(fragmentCountIndex, fragments);
  }

  /** LIST: {@code K | key type | ttl type | expires_at:u64 | bytes used:vN}, then keys. */
  public record KeyItem(byte[] key, int keyType, int ttlType, long expiresAtNanos, long bytesUsed) {
    public static final int TYPE_COUNTER = 0x00;
    public static final int TYPE_BUFFER = 0x01;
  }

  public static ItemFormat<KeyItem> keys(ValueSize size) {
    return new ItemFormat<>() {
      public int estimatedSize(KeyItem item) {
        return 9 + size.bytes() + item.key().length;
      }

      public void writeHeader(ByteBuf out, KeyItem item) {
        out.writeByte(item.key().length);
        out.writeByte(item.keyType());
        out.writeByte(item.ttlType());
        out.writeLongLE(item.expiresAtNanos());
        // A buffer longer than N bytes can express (a check API state) shows as the largest value.
        size.write(out, size.fits(item.bytesUsed()) ? item.bytesUsed() : size.max());
      }

      public byte[] name(KeyItem item) {
        return item.key();
      }
    };
  }

  /** STATS: {@code K | reads/min | writes/min | total reads | total writes}, then keys. */
  public record KeyStatsItem(byte[] key, long readsPerMinute, long writesPerMinute, long totalReads, long totalWrites) {
  }

  public static final ItemFormat<KeyStatsItem> KEY_STATS = new ItemFormat<>() {
    public int estimatedSize(KeyStatsItem item) {
      return 33 + item.key().length;
    }

    public void writeHeader(ByteBuf out, KeyStatsItem item) {
      out.writeByte(item.key().length);
      out.writeLongLE(item.readsPerMinute());
      out.writeLongLE(item.writesPerMinute());
      out.writeLongLE(item.totalReads());
      out.writeLongLE(item.totalWrites());
    }

    public byte[] name(KeyStatsItem item) {
      return item.key();
    }
  };

  private static final byte[] NO_NAME = new byte[0];

  public static final ItemFormat<ConnectionItem> CONNECTIONS = new ItemFormat<>() {
    public int estimatedSize(ConnectionItem item) {
      return Responses.CONNECTION_ITEM_LENGTH;
    }

    public void writeHeader(ByteBuf out, ConnectionItem item) {
      item.writeTo(out);
    }

    public byte[] name(ConnectionItem item) {
      return NO_NAME;
    }
  };

  /** CHANNELS: {@code C | read bytes | write bytes | subscriptions:u64}, then names. */
  public record ChannelItem(byte[] channel, long readBytes, long writeBytes, long subscriptions) {
  }

  public static final ItemFormat<ChannelItem> CHANNELS = new ItemFormat<>() {
    public int estimatedSize(ChannelItem item) {
      return 25;
    }

    public void writeHeader(ByteBuf out, ChannelItem item) {
      out.writeByte(item.channel().length);
      out.writeLongLE(item.readBytes());
      out.writeLongLE(item.writeBytes());
      out.writeLongLE(item.subscriptions());
    }

    public byte[] name(ChannelItem item) {
      return item.channel();
    }
  };
}
