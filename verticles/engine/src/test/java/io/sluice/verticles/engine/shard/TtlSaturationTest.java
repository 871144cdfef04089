package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static io.sluice.verticles.engine.shard.ShardFixture.set;
import static io.sluice.verticles.engine.shard.ShardFixture.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.storage.Record;
import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Huge unsigned TTLs (uint32/uint64) saturate at the end of time instead of overflowing into the past. */
class TtlSaturationTest {

  private static final int TTL = 0x01;
  private static final int PATCH = 0x00;
  private static final int INCREASE = 0x01;
  private static final int DECREASE = 0x02;
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  private final ShardFixture f = new ShardFixture(ValueSize.UINT64);

  private Record record(String key) {
    byte[] bytes = ShardFixture.key(key);
    return f.store.find(bytes, f.store.hash(bytes), f.clock.epochNanos());
  }

  private long hoursToEndOfTime() {
    return (Long.MAX_VALUE - f.clock.epochNanos()) / HOUR;
  }

  @ParameterizedTest
  @ValueSource(longs = {-1L, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE / 1_000})
  void insertWithAHugeTtlNeverExpires(long ttl) {
    assertThat(f.run(insert(1, 0x06, ttl, "k"))).isEqualTo("01");

    assertThat(record("k").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(f.run(query("k"))).isEqualTo(f.queryReply(1, 0x06, hoursToEndOfTime()));
    f.advance(Duration.ofDays(365 * 100));
    assertThat(f.run(query("k"))).startsWith("01");
  }

  @Test
  void insertOfTheLargestNanosecondTtlStillCounts() {
    assertThat(f.run(insert(1, 0x01, -1L, "k"))).isEqualTo("01");

    assertThat(record("k").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(f.run(query("k"))).isEqualTo(f.queryReply(1, 0x01, Long.MAX_VALUE - f.clock.epochNanos()));
  }

  @Test
  void setWithAHugeTtlNeverExpires() {
    assertThat(f.run(set(0x05, -1L, "b", new byte[] {7}))).isEqualTo("01");

    assertThat(record("b").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void increaseByAHugeValueSaturates() {
    f.run(insert(1, 0x06, 1, "k"));

    assertThat(f.run(update(TTL, INCREASE, -1L, "k"))).isEqualTo("01");
    assertThat(record("k").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(f.run(update(TTL, INCREASE, -1L, "k"))).isEqualTo("01");
    assertThat(record("k").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(f.run(query("k"))).isEqualTo(f.queryReply(1, 0x06, hoursToEndOfTime()));
  }

  @Test
  void increaseOfAnAlmostEternalRecordSaturates() {
    f.run(insert(1, 0x04, Long.MAX_VALUE / 1_000_000_000L - 1, "k"));

    assertThat(f.run(update(TTL, INCREASE, 1_000, "k"))).isEqualTo("01");
    assertThat(record("k").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void patchWithAHugeValueSaturates() {
    f.run(insert(1, 0x04, 1, "k"));

    assertThat(f.run(update(TTL, PATCH, -1L, "k"))).isEqualTo("01");
    assertThat(record("k").expiresAtNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void decreaseByAHugeValueExpiresTheRecordWithoutWrappingIntoTheFuture() {
    f.run(insert(1, 0x06, -1L, "k"));

    assertThat(f.run(update(TTL, DECREASE, -1L, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo("00");
  }

  @Test
  void decreaseOfAnOrdinaryRecordByAHugeValueExpiresIt() {
    f.run(insert(1, 0x04, 60, "k"));

    assertThat(f.run(update(TTL, DECREASE, Long.MIN_VALUE, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo("00");
  }

  @Test
  void uint32HugeHourTtlSaturates() {
    ShardFixture u32 = new ShardFixture(ValueSize.UINT32);
    assertThat(u32.run(insert(1, 0x06, 0xffff_ffffL, "k"))).isEqualTo("01");

    long hours = (Long.MAX_VALUE - u32.clock.epochNanos()) / HOUR;
    assertThat(u32.run(query("k"))).isEqualTo(u32.queryReply(1, 0x06, hours));
  }
}
