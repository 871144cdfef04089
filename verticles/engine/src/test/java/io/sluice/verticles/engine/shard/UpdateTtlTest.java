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

/** UPDATE of the TTL attribute (spec §2.3): values are in the record's stored unit. */
class UpdateTtlTest {

  private static final int TTL = 0x01;
  private static final int PATCH = 0x00;
  private static final int INCREASE = 0x01;
  private static final int DECREASE = 0x02;

  private final ShardFixture f = new ShardFixture();

  @Test
  void patchCountsFromNowNotFromCreation() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");
    f.advance(Duration.ofSeconds(10));

    assertThat(f.run("03 01 00 78 00 03 61 62 63")).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 0a 00 04 77 00");
  }

  @Test
  void increaseExtendsTheCurrentExpiry() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");
    f.advance(Duration.ofSeconds(10));

    assertThat(f.run("03 01 01 0a 00 03 61 62 63")).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 0a 00 04 3b 00");
  }

  @Test
  void decreaseShortensTheCurrentExpiry() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run("03 01 02 1e 00 03 61 62 63")).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 0a 00 04 1d 00");
  }

  @Test
  void decreaseIntoThePastSucceedsAndTheRecordIsGone() {
    assertThat(f.run("01 01 00 04 64 00 03 64 65 63")).isEqualTo("01");

    assertThat(f.run("03 01 02 c8 00 03 64 65 63")).isEqualTo("01");
    assertThat(f.run("02 03 64 65 63")).isEqualTo("00");
    assertThat(f.store.size()).isZero();
  }

  @Test
  void decreaseToOneNanosecondLeftKeepsTheRecordAndToNowRemovesIt() {
    f.run(insert(1, 0x01, 1_000, "ns"));

    assertThat(f.run(update(TTL, DECREASE, 999, "ns"))).isEqualTo("01");
    assertThat(f.run(query("ns"))).isEqualTo(f.queryReply(1, 0x01, 1));
    assertThat(f.run(update(TTL, DECREASE, 1, "ns"))).isEqualTo("01");
    assertThat(f.run(query("ns"))).isEqualTo("00");
  }

  @Test
  void patchIsReadInTheBufferStoredUnit() {
    f.run("05 05 3c 00 03 06 00 62 75 66 48 45 4c 4c 4f 21");

    assertThat(f.run("03 01 00 0a 00 03 62 75 66")).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("06 03 62 75 66")).isEqualTo("01 05 09 00 06 00 48 45 4c 4c 4f 21");
  }

  @Test
  void increaseIsReadInTheStoredMillisecondUnit() {
    f.run("01 03 00 03 dc 05 02 6d 73");

    assertThat(f.run(update(TTL, INCREASE, 500, "ms"))).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("02 02 6d 73")).isEqualTo("01 03 00 03 cf 07");
  }

  @Test
  void patchOfZeroExpiresTheRecordAtOnce() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run(update(TTL, PATCH, 0, "abc"))).isEqualTo("01");
    assertThat(f.run(query("abc"))).isEqualTo("00");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x03, 0x04, 0xff})
  void unknownChangeOfTheTtlSucceedsAndChangesNothing(int change) {
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run(update(TTL, change, 100, "abc"))).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 0a 00 04 3b 00");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x00, 0x07, 0x09, 0xff})
  void storedUnknownTtlTypeMakesPatchExpireTheRecordAtOnce(int ttlType) {
    f.run(insert(3, ttlType, 60, "u"));

    assertThat(f.run(update(TTL, PATCH, 100, "u"))).isEqualTo("01");
    assertThat(f.run(query("u"))).isEqualTo("00");
  }

  @ParameterizedTest
  @ValueSource(ints = {0x00, 0x07, 0x09, 0xff})
  void storedUnknownTtlTypeMakesIncreaseAndDecreaseChangeNothing(int ttlType) {
    f.run(insert(3, ttlType, 60, "u"));
    f.advanceMillis(1);

    assertThat(f.run(update(TTL, INCREASE, 100, "u"))).isEqualTo("01");
    assertThat(f.run(query("u"))).isEqualTo(f.queryReply(3, ttlType, 59));
    assertThat(f.run(update(TTL, DECREASE, 100, "u"))).isEqualTo("01");
    assertThat(f.run(query("u"))).isEqualTo(f.queryReply(3, ttlType, 59));
    assertThat(f.run(update(TTL, DECREASE, 0xffff, "u"))).isEqualTo("01");
    assertThat(f.run(query("u"))).isEqualTo(f.queryReply(3, ttlType, 59));
  }

  @Test
  void remainingTtlWrapsModuloTheValueSize() {
    assertThat(f.run("01 01 00 04 e8 fd 03 62 69 67")).isEqualTo("01");
    assertThat(f.run("03 01 01 e8 03 03 62 69 67")).isEqualTo("01");
    f.advanceMillis(1);

    assertThat(f.run("02 03 62 69 67")).isEqualTo("01 01 00 04 cf 01");
  }

  @Test
  void wrappedTtlStillExpiresAtTheRealInstant() {
    f.run("01 01 00 04 e8 fd 03 62 69 67");
    f.run("03 01 01 e8 03 03 62 69 67");

    f.advance(Duration.ofSeconds(66_000 - 100).plusMillis(1));
    assertThat(f.run("02 03 62 69 67")).isEqualTo("01 01 00 04 63 00");
    f.advance(Duration.ofSeconds(100).minusMillis(1));
    assertThat(f.run("02 03 62 69 67")).isEqualTo("00");
  }

  @Test
  void uint8TtlWrapsAtTwoHundredFiftySix() {
    ShardFixture u8 = new ShardFixture(ValueSize.UINT8);
    u8.run(insert(1, 0x04, 250, "k"));
    u8.run(update(TTL, INCREASE, 10, "k"));
    u8.advanceMillis(1);

    assertThat(u8.run(query("k"))).isEqualTo(u8.queryReply(1, 0x04, 259 - 256));
  }
}
