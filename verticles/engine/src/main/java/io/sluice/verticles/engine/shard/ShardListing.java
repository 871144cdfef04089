package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Listing;

import java.util.ArrayList;
import java.util.List;

/**
 * One shard's part of a listing that every shard contributes to: LIST's keys, STATS's key
 * statistics, INFO's {@link ShardSummary}. The session joins every shard's part into one answer.
 */
public sealed interface ShardListing permits ShardListing.Keys, ShardListing.KeyStats, ShardSummary {

  /** Adds this part to the parts of the other shards. */
  void joinInto(Parts parts);

  /** Writes this part for {@link BatchWire}, its kind first. */
  void write(ByteBuf out);

  /** LIST's part: this shard's live keys. */
  record Keys(List<Listing.KeyItem> items) implements ShardListing {

    @Override
    public void joinInto(Parts parts) {
      parts.keys.addAll(items);
    }

    @Override
    public void write(ByteBuf out) {
      ListingWire.writeKeys(out, this);
    }
  }

  /** STATS's part: this shard's live keys' statistics. */
  record KeyStats(List<Listing.KeyStatsItem> items) implements ShardListing {

    @Override
    public void joinInto(Parts parts) {
      parts.keyStats.addAll(items);
    }

    @Override
    public void write(ByteBuf out) {
      ListingWire.writeKeyStats(out, this);
    }
  }

  /** Every shard's part of one listing, joined. */
  final class Parts {

    private final List<Listing.KeyItem> keys = new ArrayList<>();
    private final List<Listing.KeyStatsItem> keyStats = new ArrayList<>();
    private final List<ShardSummary> summaries = new ArrayList<>();

    public List<Listing.KeyItem> keys() {
      return keys;
    }

    public List<Listing.KeyStatsItem> keyStats() {
      return keyStats;
    }

    public List<ShardSummary> summaries() {
      return summaries;
    }

    void add(ShardSummary summary) {
      summaries.add(summary);
    }
  }
}
