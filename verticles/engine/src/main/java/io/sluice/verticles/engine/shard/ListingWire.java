package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.StoreLimits;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ShardListing} in {@link BatchWire}'s results: {@code u8 kind} (0 for none), then the
 * items ({@code u32 count} and each item) or the summary's fields.
 */
final class ListingWire {

  private static final byte NO_LISTING = 0;
  private static final byte KEYS = 1;
  private static final byte KEY_STATS = 2;
  private static final byte SUMMARY = 3;

  private ListingWire() {
  }

  static void write(ByteBuf out, ShardListing listing) {
    if (listing == null) {
      out.writeByte(NO_LISTING);
    } else {
      listing.write(out);
    }
  }

  static void writeKeys(ByteBuf out, ShardListing.Keys keys) {
    out.writeByte(KEYS);
    out.writeIntLE(keys.items().size());
    for (Listing.KeyItem key : keys.items()) {
      BatchWire.writeBytes(out, key.key());
      out.writeByte(key.keyType());
      out.writeByte(key.ttlType());
      out.writeLongLE(key.expiresAtNanos());
      out.writeLongLE(key.bytesUsed());
    }
  }

  static void writeKeyStats(ByteBuf out, ShardListing.KeyStats keyStats) {
    out.writeByte(KEY_STATS);
    out.writeIntLE(keyStats.items().size());
    for (Listing.KeyStatsItem stats : keyStats.items()) {
      BatchWire.writeBytes(out, stats.key());
      out.writeLongLE(stats.readsPerMinute());
      out.writeLongLE(stats.writesPerMinute());
      out.writeLongLE(stats.totalReads());
      out.writeLongLE(stats.totalWrites());
    }
  }

  static void writeSummary(ByteBuf out, ShardSummary summary) {
    out.writeByte(SUMMARY);
    out.writeLongLE(summary.records());
    out.writeLongLE(summary.counters());
    out.writeLongLE(summary.buffers());
    out.writeLongLE(summary.bufferBytes());
    out.writeLongLE(summary.expiredReclaimed());
    out.writeLongLE(summary.estimatedBytes());
    out.writeLongLE(summary.evictedForKeys());
    out.writeLongLE(summary.evictedForMemory());
    out.writeLongLE(summary.rejected());
    out.writeLongLE(summary.limits().maxRecords());
    out.writeLongLE(summary.limits().maxBytes());
    out.writeByte(summary.limits().eviction().ordinal());
  }

  /** The listing {@link #write} wrote, or null for none. */
  static ShardListing read(ByteBuf in) {
    byte kind = in.readByte();
    switch (kind) {
      case SUMMARY:
        return new ShardSummary(in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
            in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
            new StoreLimits(in.readLongLE(), in.readLongLE(), Eviction.values()[in.readUnsignedByte()]));
      case KEYS: {
        int count = in.readIntLE();
        List<Listing.KeyItem> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(new Listing.KeyItem(BatchWire.readBytes(in), in.readUnsignedByte(), in.readUnsignedByte(),
              in.readLongLE(), in.readLongLE()));
        }
        return new ShardListing.Keys(items);
      }
      case KEY_STATS: {
        int count = in.readIntLE();
        List<Listing.KeyStatsItem> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(new Listing.KeyStatsItem(BatchWire.readBytes(in), in.readLongLE(), in.readLongLE(),
              in.readLongLE(), in.readLongLE()));
        }
        return new ShardListing.KeyStats(items);
      }
      default:
        return null;
    }
  }
}
