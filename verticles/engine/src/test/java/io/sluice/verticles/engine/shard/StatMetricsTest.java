package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.get;
import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.purge;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static io.sluice.verticles.engine.shard.ShardFixture.set;
import static io.sluice.verticles.engine.shard.ShardFixture.stat;
import static io.sluice.verticles.engine.shard.ShardFixture.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.testsupport.Wire;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.Responses;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * Per-record reads and writes (spec §5): counted per the §5 table, reported by STAT only for closed
 * one-minute windows counted from server start.
 */
class StatMetricsTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final ShardFixture f = new ShardFixture();

  private static String statReply(long readsPerMinute, long writesPerMinute, long totalReads, long totalWrites) {
    ByteBuf out = Unpooled.buffer();
    Responses.stat(out, readsPerMinute, writesPerMinute, totalReads, totalWrites);
    return Wire.hex(out);
  }

  @Test
  void statOfAMissingKeyFails() {
    assertThat(f.run("09 04 6e 6f 70 65")).isEqualTo("00");
  }

  @Test
  void statIsAllZeroBeforeTheFirstWindowCloses() {
    f.run("05 05 1e 00 03 04 00 62 75 66 45 48 4c 4f");
    f.run("06 03 62 75 66");
    f.run("06 03 62 75 66");
    f.advance(MINUTE.minusNanos(1));

    assertThat(f.run("09 03 62 75 66")).isEqualTo("01" + " 00".repeat(32));
  }

  @Test
  void statReportsTheClosedWindowAndTotals() {
    f.run(insert(10, 0x04, 600, "k"));
    f.run(query("k"));
    f.run(query("k"));
    f.run(query("k"));
    f.run(update(0x00, 0x02, 1, "k"));
    f.run(update(0x00, 0x02, 100, "k")); // refused: a read, no write
    f.run(update(0x01, 0x01, 1, "k"));
    assertThat(f.run(stat("k"))).isEqualTo(statReply(0, 0, 0, 0));

    f.advance(MINUTE);

    // reads: 3 QUERY + 3 UPDATE + 1 STAT; writes: INSERT + 2 successful UPDATE
    assertThat(f.run(stat("k"))).isEqualTo(statReply(7, 3, 7, 3));
    assertThat(f.run(stat("k"))).as("the current window is not reported").isEqualTo(statReply(7, 3, 7, 3));

    f.advance(MINUTE);
    assertThat(f.run(stat("k"))).isEqualTo(statReply(2, 0, 9, 3));
  }

  @Test
  void idleWindowReportsZeroPerMinuteAndKeepsTheTotals() {
    f.run(insert(10, 0x04, 600, "k"));
    f.run(query("k"));

    f.advance(MINUTE.multipliedBy(2));

    assertThat(f.run(stat("k"))).isEqualTo(statReply(0, 0, 1, 1));
    f.advance(MINUTE);
    assertThat(f.run(stat("k"))).isEqualTo(statReply(1, 0, 2, 1));
  }

  @Test
  void setCreationAndOverwriteAreWritesAndGetIsARead() {
    f.run(set(0x04, 600, "buf", new byte[] {1}));
    f.run(set(0x04, 600, "buf", new byte[] {2, 3}));
    f.run(get("buf"));
    f.advance(MINUTE);

    assertThat(f.run(stat("buf"))).isEqualTo(statReply(1, 2, 1, 2));
  }

  @Test
  void refusedSetOnACounterIsNotAWrite() {
    f.run(insert(10, 0x04, 600, "k"));
    f.run(set(0x04, 600, "k", new byte[] {1}));
    f.advance(MINUTE);

    assertThat(f.run(stat("k"))).isEqualTo(statReply(0, 1, 0, 1));
  }

  @Test
  void everyUpdateIsAReadButOnlyASuccessfulOneIsAWrite() {
    f.run(set(0x04, 600, "buf", new byte[] {1}));
    f.run(update(0x00, 0x00, 1, "buf"));  // quota on a buffer: refused
    f.run(update(0x05, 0x00, 1, "buf"));  // unknown attribute: refused
    f.run(update(0x01, 0x09, 1, "buf"));  // unknown change: 01, a write
    f.run(update(0x01, 0x01, 1, "buf"));  // TTL increase: a write
    f.advance(MINUTE);

    assertThat(f.run(stat("buf"))).isEqualTo(statReply(4, 3, 4, 3));
  }

  @Test
  void windowsCountFromTheStoreOriginNotFromTheRecordCreation() {
    f.advance(Duration.ofSeconds(59));
    f.run(insert(10, 0x04, 600, "k"));
    f.advance(Duration.ofSeconds(1));

    assertThat(f.run(stat("k"))).isEqualTo(statReply(0, 1, 0, 1));
  }

  @Test
  void listAndStatsCountOneReadPerListedRecord() {
    f.run(insert(10, 0x04, 600, "a"));
    f.run(insert(10, 0x04, 600, "b"));
    f.execute(Request.Bare.LIST);
    f.execute(Request.Bare.STATS);
    f.execute(Request.Bare.LIST);
    f.advance(MINUTE);

    assertThat(f.run(stat("a"))).isEqualTo(statReply(3, 1, 3, 1));
    assertThat(f.run(stat("b"))).isEqualTo(statReply(3, 1, 3, 1));
  }

  @Test
  void infoCountsNoRead() {
    f.run(insert(10, 0x04, 600, "a"));
    f.execute(Request.Bare.INFO);
    f.advance(MINUTE);

    assertThat(f.run(stat("a"))).isEqualTo(statReply(0, 1, 0, 1));
  }

  @Test
  void recreatedKeyStartsWithFreshMetrics() {
    f.run(insert(10, 0x04, 600, "k"));
    f.run(query("k"));
    f.run(query("k"));
    f.run(purge("k"));
    f.run(insert(10, 0x04, 600, "k"));
    f.advance(MINUTE);

    assertThat(f.run(stat("k"))).isEqualTo(statReply(0, 1, 0, 1));
  }

  @Test
  void expiredRecordHasNoStat() {
    f.run(insert(10, 0x04, 1, "k"));
    f.advance(Duration.ofSeconds(1));

    assertThat(f.run(stat("k"))).isEqualTo("00");
  }
}
