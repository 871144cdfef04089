package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static io.sluice.verticles.engine.shard.ShardFixture.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** LIST, STATS and INFO write no reply bytes on a shard: they collect items for the session to merge. */
class ListingCollectionTest {

  private final ShardFixture f = new ShardFixture();

  private static String name(byte[] key) {
    return new String(key, StandardCharsets.US_ASCII);
  }

  @Test
  void listCollectsOnlyLiveRecordsWithTheirFields() {
    long t0 = f.clock.epochNanos();
    f.run(insert(3, 0x06, 2, "counter"));
    f.run(set(0x05, 60, "buffer", new byte[6]));
    f.run(insert(3, 0x04, 1, "short"));
    f.run(insert(3, 0x00, 90, "odd-unit"));
    f.advance(Duration.ofSeconds(1));

    ShardBatch batch = f.execute(Request.Bare.LIST);
    List<Listing.KeyItem> items = ShardFixture.collected(batch, 0).keys();

    assertThat(items)
        .extracting(i -> name(i.key()), Listing.KeyItem::keyType, Listing.KeyItem::ttlType,
            Listing.KeyItem::expiresAtNanos, Listing.KeyItem::bytesUsed)
        .containsExactlyInAnyOrder(
            tuple("counter", Listing.KeyItem.TYPE_COUNTER, 0x06, t0 + TimeUnit.HOURS.toNanos(2), 2L),
            tuple("buffer", Listing.KeyItem.TYPE_BUFFER, 0x05, t0 + TimeUnit.MINUTES.toNanos(60), 6L),
            tuple("odd-unit", Listing.KeyItem.TYPE_COUNTER, 0x00, t0 + TimeUnit.SECONDS.toNanos(90), 2L));
    assertThat(batch.replyEnd(0)).isZero();
    assertThat(batch.replies().readableBytes()).isZero();
  }

  @ParameterizedTest
  @EnumSource(ValueSize.class)
  void counterUsesValueSizeBytes(ValueSize size) {
    ShardFixture fs = new ShardFixture(size);
    fs.run(insert(1, 0x04, 60, "c"));

    List<Listing.KeyItem> items = ShardFixture.collected(fs.execute(Request.Bare.LIST), 0).keys();

    assertThat(items).singleElement().extracting(Listing.KeyItem::bytesUsed).isEqualTo((long) size.bytes());
  }

  @Test
  void emptyStoreCollectsEmptyLists() {
    ShardBatch batch = f.execute(Request.Bare.LIST, Request.Bare.STATS);

    assertThat(batch.collected(0)).isEqualTo(new ShardListing.Keys(List.of()));
    assertThat(batch.collected(1)).isEqualTo(new ShardListing.KeyStats(List.of()));
  }

  @Test
  void statsCollectsOnlyLiveRecordsWithTheirMetrics() {
    f.run(insert(3, 0x04, 600, "a"));
    f.run(query("a"));
    f.run(insert(3, 0x04, 60, "gone"));
    f.advance(Duration.ofSeconds(60));

    List<Listing.KeyStatsItem> items = ShardFixture.collected(f.execute(Request.Bare.STATS), 0).keyStats();

    assertThat(items)
        .extracting(i -> name(i.key()), Listing.KeyStatsItem::readsPerMinute, Listing.KeyStatsItem::writesPerMinute,
            Listing.KeyStatsItem::totalReads, Listing.KeyStatsItem::totalWrites)
        .containsExactly(tuple("a", 1L, 1L, 1L, 1L));
  }

  @Test
  void infoCollectsTheShardSummary() {
    f.run(insert(3, 0x04, 600, "c1"));
    f.run(insert(3, 0x04, 1, "c2"));
    f.run(set(0x04, 600, "b1", new byte[5]));
    f.run(set(0x04, 600, "b2", new byte[7]));
    f.advance(Duration.ofSeconds(1));
    f.run(query("c2"));

    ShardSummary summary = ShardFixture.collected(f.execute(Request.Bare.INFO), 0).summaries().get(0);

    // Estimates: 72 a record, 24 a key of 2 bytes, 24 a buffer of 5 or 7 bytes.
    assertThat(summary).isEqualTo(new ShardSummary(3, 1, 2, 12, 1, 3 * (72 + 24) + 2 * 24, 0, 0, 0,
        io.sluice.verticles.engine.storage.StoreLimits.unlimited()));
  }

  @Test
  void listingsInAMixedBatchSeeTheRequestsBeforeThemAndLeaveRepliesAligned() {
    ShardBatch batch = f.execute(
        insert(1, 0x04, 60, "x"),
        Request.Bare.LIST,
        query("x"),
        Request.Bare.STATS,
        new Request.Purge(ShardFixture.key("x")),
        Request.Bare.LIST);

    assertThat(ShardFixture.replies(batch)).containsExactly("01", "", "01 01 00 04 3c 00", "", "01", "");
    assertThat(batch.collected(0)).isNull();
    assertThat(batch.collected(2)).isNull();
    assertThat(ShardFixture.collectedKeys(batch, 1)).containsExactly("x");
    assertThat(ShardFixture.collected(batch, 3).keyStats()).hasSize(1);
    assertThat(ShardFixture.collected(batch, 5).keys()).isEmpty();
  }
}
