package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static io.sluice.verticles.engine.shard.ShardFixture.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** INSERT creates a counter and never overwrites; QUERY reports quota and the floored TTL (spec §2.1, §2.2). */
class InsertAndQueryTest {

  private static final String INSERT_ABC = "01 0a 00 04 3c 00 03 61 62 63";
  private static final String QUERY_ABC = "02 03 61 62 63";

  private final ShardFixture f = new ShardFixture();

  @Test
  void queryOneMillisecondAfterInsertReportsTheFlooredRemainingTtl() {
    assertThat(f.run(INSERT_ABC)).isEqualTo("01");
    f.advanceMillis(1);

    assertThat(f.run(QUERY_ABC)).isEqualTo("01 0a 00 04 3b 00");
  }

  @Test
  void queryAtTheInstantOfInsertReportsTheWholeTtl() {
    f.run(INSERT_ABC);

    assertThat(f.run(QUERY_ABC)).isEqualTo("01 0a 00 04 3c 00");
  }

  @Test
  void insertOfAnExistingCounterFailsAndChangesNothing() {
    f.run(INSERT_ABC);

    assertThat(f.run("01 05 00 03 0a 00 03 61 62 63")).isEqualTo("00");
    f.advanceMillis(1);
    assertThat(f.run(QUERY_ABC)).isEqualTo("01 0a 00 04 3b 00");
    assertThat(f.store.counters()).isEqualTo(1);
  }

  @Test
  void insertOfAnExistingBufferKeyFailsAndLeavesTheBuffer() {
    assertThat(f.run("05 04 1e 00 03 04 00 62 75 66 45 48 4c 4f")).isEqualTo("01");

    assertThat(f.run("01 01 00 04 1e 00 03 62 75 66")).isEqualTo("00");
    f.advanceMillis(1);
    assertThat(f.run("06 03 62 75 66")).isEqualTo("01 04 1d 00 04 00 45 48 4c 4f");
    assertThat(f.store.counters()).isZero();
    assertThat(f.store.buffers()).isEqualTo(1);
  }

  @Test
  void queryOfAMissingKeyFails() {
    assertThat(f.run("02 03 7a 7a 7a")).isEqualTo("00");
  }

  @Test
  void insertWithTtlZeroSucceedsButTheRecordIsNeverVisible() {
    assertThat(f.run("01 03 00 04 00 00 04 7a 65 72 6f")).isEqualTo("01");

    assertThat(f.run("02 04 7a 65 72 6f")).isEqualTo("00");
    assertThat(f.store.size()).isZero();
    assertThat(f.run("01 03 00 04 00 00 04 7a 65 72 6f")).as("nothing blocks a second INSERT").isEqualTo("01");
  }

  @Test
  void counterIsVisibleUntilOneNanosecondBeforeExpiryAndGoneAtExpiry() {
    f.run("01 05 00 04 01 00 01 41");

    f.advance(Duration.ofSeconds(1).minusNanos(1));
    assertThat(f.run("02 01 41")).isEqualTo("01 05 00 04 00 00");
    f.advance(Duration.ofNanos(1));
    assertThat(f.run("02 01 41")).isEqualTo("00");
  }

  @Test
  void insertOfAnExpiredKeyCreatesAFreshRecordAtOnce() {
    f.run("01 05 00 04 01 00 01 41");
    f.advance(Duration.ofSeconds(1));

    assertThat(f.run("01 07 00 04 3c 00 01 41")).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("02 01 41")).isEqualTo("01 07 00 04 3b 00");
    assertThat(f.store.size()).isEqualTo(1);
  }

  @Test
  void expiredKeyCanBeInsertedAgainEvenBeforeAnyLookupReclaimedIt() {
    f.run("01 05 00 04 01 00 01 41");
    f.advance(Duration.ofSeconds(5));

    assertThat(f.run("01 07 00 04 3c 00 01 41")).isEqualTo("01");
    assertThat(f.store.size()).isEqualTo(1);
    assertThat(f.store.expiredReclaimed()).isEqualTo(1);
  }

  @Test
  void emptyKeyIsAccepted() {
    assertThat(f.run("01 03 00 04 05 00 00")).isEqualTo("01");
    f.advanceMillis(1);

    assertThat(f.run("02 00")).isEqualTo("01 03 00 04 04 00");
  }

  @Test
  void quotaZeroIsAllowed() {
    assertThat(f.run("01 00 00 04 3c 00 01 7a")).isEqualTo("01");

    assertThat(f.run("02 01 7a")).isEqualTo("01 00 00 04 3c 00");
  }

  @Test
  void millisecondTtlIsFlooredInMilliseconds() {
    f.run("01 03 00 03 dc 05 02 6d 73");
    f.advance(Duration.ofMillis(300).plusNanos(500_000));

    assertThat(f.run("02 02 6d 73")).isEqualTo("01 03 00 03 af 04");
  }

  @Test
  void hourTtlIsFlooredInHours() {
    f.run("01 03 00 06 02 00 01 68");
    f.advanceMillis(1);

    assertThat(f.run("02 01 68")).isEqualTo("01 03 00 06 01 00");
  }

  @Test
  void nanosecondAndMicrosecondTtlsAreReportedInTheirUnit() {
    f.run(insert(1, 0x01, 5_000, "ns"));
    f.run(insert(1, 0x02, 5_000, "us"));
    f.run(insert(1, 0x05, 5, "min"));
    f.advance(Duration.ofNanos(1_500));

    assertThat(f.run(query("ns"))).isEqualTo(f.queryReply(1, 0x01, 3_500));
    assertThat(f.run(query("us"))).isEqualTo(f.queryReply(1, 0x02, 4_998));
    assertThat(f.run(query("min"))).isEqualTo(f.queryReply(1, 0x05, 4));
  }

  @ParameterizedTest
  @ValueSource(ints = {0x00, 0x07, 0x09, 0x7f, 0xff})
  void unknownTtlTypeCountsAsSecondsAndIsEchoed(int ttlType) {
    assertThat(f.run(insert(3, ttlType, 2, "tt0"))).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run(query("tt0"))).isEqualTo(f.queryReply(3, ttlType, 1));

    f.advance(Duration.ofSeconds(2).minusMillis(1).minusNanos(1));
    assertThat(f.run(query("tt0"))).isEqualTo(f.queryReply(3, ttlType, 0));
    f.advance(Duration.ofNanos(1));
    assertThat(f.run(query("tt0"))).isEqualTo("00");
  }

  @Test
  void insertWithTtlTypeZeroMatchesTheSpecVector() {
    assertThat(f.run("01 03 00 00 02 00 03 74 74 30")).isEqualTo("01");
    f.advanceMillis(1);

    assertThat(f.run("02 03 74 74 30")).isEqualTo("01 03 00 00 01 00");
  }

  @Test
  void uint8MatchesTheSpecVectors() {
    ShardFixture u8 = new ShardFixture(ValueSize.UINT8);
    assertThat(u8.run("01 0a 04 3c 03 61 62 63")).isEqualTo("01");
    u8.advanceMillis(1);
    assertThat(u8.run("02 03 61 62 63")).isEqualTo("01 0a 04 3b");
    assertThat(u8.run("03 00 02 03 03 61 62 63")).isEqualTo("01");
    assertThat(u8.run("02 03 61 62 63")).isEqualTo("01 07 04 3b");
  }

  @Test
  void uint32MatchesTheSpecVectors() {
    ShardFixture u32 = new ShardFixture(ValueSize.UINT32);
    assertThat(u32.run("01 0a 00 00 00 04 3c 00 00 00 03 61 62 63")).isEqualTo("01");
    u32.advanceMillis(1);
    assertThat(u32.run("02 03 61 62 63")).isEqualTo("01 0a 00 00 00 04 3b 00 00 00");
    assertThat(u32.run("03 00 02 03 00 00 00 03 61 62 63")).isEqualTo("01");
    assertThat(u32.run("02 03 61 62 63")).isEqualTo("01 07 00 00 00 04 3b 00 00 00");
  }

  @Test
  void uint64QueryUsesEightByteFields() {
    ShardFixture u64 = new ShardFixture(ValueSize.UINT64);
    assertThat(u64.run(insert(10, 0x04, 60, "abc"))).isEqualTo("01");
    u64.advanceMillis(1);
    assertThat(u64.run(query("abc")))
        .isEqualTo("01 0a 00 00 00 00 00 00 00 04 3b 00 00 00 00 00 00 00");
    assertThat(u64.run(update(0, 2, 3, "abc"))).isEqualTo("01");
    assertThat(u64.run(query("abc")))
        .isEqualTo("01 07 00 00 00 00 00 00 00 04 3b 00 00 00 00 00 00 00");
  }
}
