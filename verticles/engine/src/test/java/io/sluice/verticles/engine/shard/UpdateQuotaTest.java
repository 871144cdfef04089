package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static io.sluice.verticles.engine.shard.ShardFixture.set;
import static io.sluice.verticles.engine.shard.ShardFixture.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** UPDATE of the quota attribute (spec §2.3): PATCH, wrapping INCREASE, DECREASE never below zero. */
class UpdateQuotaTest {

  private static final int QUOTA = 0x00;
  private static final int TTL = 0x01;
  private static final int PATCH = 0x00;
  private static final int INCREASE = 0x01;
  private static final int DECREASE = 0x02;

  /** Inserts "k" with a quota and a 60 s TTL, and answers the fixture. */
  private static ShardFixture withCounter(ValueSize size, long quota) {
    ShardFixture f = new ShardFixture(size);
    assertThat(f.run(insert(quota, 0x04, 60, "k"))).isEqualTo("01");
    return f;
  }

  private static String quotaReply(ShardFixture f, long quota) {
    return f.queryReply(quota, 0x04, 60);
  }

  @ParameterizedTest
  @EnumSource(ValueSize.class)
  void patchSetsTheQuota(ValueSize size) {
    ShardFixture f = withCounter(size, 10);

    assertThat(f.run(update(QUOTA, PATCH, size.max(), "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, size.max()));
    assertThat(f.run(update(QUOTA, PATCH, 0, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 0));
  }

  @ParameterizedTest
  @EnumSource(ValueSize.class)
  void increaseAdds(ValueSize size) {
    ShardFixture f = withCounter(size, 10);

    assertThat(f.run(update(QUOTA, INCREASE, 5, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 15));
  }

  @ParameterizedTest
  @EnumSource(ValueSize.class)
  void increaseWrapsModuloTheValueSize(ValueSize size) {
    ShardFixture f = withCounter(size, size.max());

    assertThat(f.run(update(QUOTA, INCREASE, 2, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 1));

    assertThat(f.run(update(QUOTA, INCREASE, size.max(), "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).as("1 + max wraps to 0").isEqualTo(quotaReply(f, 0));
  }

  @ParameterizedTest
  @EnumSource(ValueSize.class)
  void decreaseToExactlyZeroSucceedsAndBelowZeroIsRefused(ValueSize size) {
    ShardFixture f = withCounter(size, 10);

    assertThat(f.run(update(QUOTA, DECREASE, 4, "k"))).isEqualTo("01");
    assertThat(f.run(update(QUOTA, DECREASE, 7, "k"))).isEqualTo("00");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 6));
    assertThat(f.run(update(QUOTA, DECREASE, 6, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 0));
    assertThat(f.run(update(QUOTA, DECREASE, 1, "k"))).isEqualTo("00");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 0));
  }

  @ParameterizedTest
  @EnumSource(ValueSize.class)
  void decreaseByTheLargestValueIsRefusedUnlessTheCounterHoldsIt(ValueSize size) {
    ShardFixture f = withCounter(size, 5);

    assertThat(f.run(update(QUOTA, DECREASE, size.max(), "k"))).isEqualTo("00");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 5));

    f.run(update(QUOTA, PATCH, size.max(), "k"));
    assertThat(f.run(update(QUOTA, DECREASE, size.max(), "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 0));
  }

  @Test
  void uint64QuotaIsUnsignedAboveTwoToTheSixtyThree() {
    ShardFixture f = withCounter(ValueSize.UINT64, Long.MIN_VALUE); // 2^63

    assertThat(f.run(update(QUOTA, DECREASE, 1, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, Long.MAX_VALUE));
    assertThat(f.run(update(QUOTA, INCREASE, 1, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, Long.MIN_VALUE));
  }

  @ParameterizedTest
  @ValueSource(ints = {PATCH, INCREASE, DECREASE, 0x03})
  void anyQuotaChangeOnABufferIsRefused(int change) {
    ShardFixture f = new ShardFixture();
    f.run(set(0x04, 30, "buf", new byte[] {1, 2}));

    assertThat(f.run(update(QUOTA, change, 1, "buf"))).isEqualTo("00");
    assertThat(f.run(query("buf"))).isEqualTo(f.queryReply(0, 0x04, 30));
    assertThat(f.run("06 03 62 75 66")).isEqualTo("01 04 1e 00 02 00 01 02");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x02, 0x03, 0x7f, 0xff})
  void unknownAttributeIsRefusedAndChangesNothing(int attribute) {
    ShardFixture f = withCounter(ValueSize.UINT16, 10);

    for (int change = 0; change <= 3; change++) {
      assertThat(f.run(update(attribute, change, 1, "k"))).isEqualTo("00");
    }
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 10));
  }

  @ParameterizedTest
  @ValueSource(ints = {0x03, 0x04, 0xff})
  void unknownChangeOfTheQuotaSucceedsAndChangesNothing(int change) {
    ShardFixture f = withCounter(ValueSize.UINT16, 10);

    assertThat(f.run(update(QUOTA, change, 3, "k"))).isEqualTo("01");
    assertThat(f.run(query("k"))).isEqualTo(quotaReply(f, 10));
  }

  @Test
  void updateOfAMissingKeyFails() {
    ShardFixture f = new ShardFixture();

    assertThat(f.run(update(QUOTA, PATCH, 1, "nope"))).isEqualTo("00");
    assertThat(f.run(update(TTL, PATCH, 1, "nope"))).isEqualTo("00");
    assertThat(f.store.size()).isZero();
  }

  @Test
  void updateOfAnExpiredKeyFails() {
    ShardFixture f = withCounter(ValueSize.UINT16, 10);
    f.advance(Duration.ofSeconds(60));

    assertThat(f.run(update(QUOTA, INCREASE, 1, "k"))).isEqualTo("00");
    assertThat(f.run(update(TTL, INCREASE, 100, "k"))).isEqualTo("00");
    assertThat(f.run(query("k"))).isEqualTo("00");
  }

  @Test
  void specVectorsFiveToNine() {
    ShardFixture f = new ShardFixture();
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run("03 00 02 04 00 03 61 62 63")).isEqualTo("01");
    assertThat(f.run("03 00 02 07 00 03 61 62 63")).isEqualTo("00");
    assertThat(f.run("03 00 02 06 00 03 61 62 63")).isEqualTo("01");
    assertThat(f.run("03 00 00 ff ff 03 61 62 63")).isEqualTo("01");
    assertThat(f.run("03 00 01 02 00 03 61 62 63")).isEqualTo("01");
    f.advance(Duration.ofSeconds(2).plusMillis(1));
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 01 00 04 39 00");
  }

  @Test
  void specVectorsThirteenAndFourteen() {
    ShardFixture f = new ShardFixture();
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run("03 02 00 01 00 03 61 62 63")).isEqualTo("00");
    assertThat(f.run("03 00 03 01 00 03 61 62 63")).isEqualTo("01");
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 0a 00 04 3c 00");
  }
}
