package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** PURGE removes a live counter or buffer once (spec §2.4). */
class PurgeTest {

  private final ShardFixture f = new ShardFixture();

  @Test
  void purgeRemovesACounterOnlyOnce() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run("04 03 61 62 63")).isEqualTo("01");
    assertThat(f.run("04 03 61 62 63")).isEqualTo("00");
    assertThat(f.run("02 03 61 62 63")).isEqualTo("00");
    assertThat(f.store.counters()).isZero();
    assertThat(f.store.size()).isZero();
  }

  @Test
  void purgeRemovesABufferAndItsBytes() {
    f.run("05 04 1e 00 03 04 00 62 75 66 45 48 4c 4f");

    assertThat(f.run("04 03 62 75 66")).isEqualTo("01");
    assertThat(f.run("06 03 62 75 66")).isEqualTo("00");
    assertThat(f.store.buffers()).isZero();
    assertThat(f.store.bufferBytes()).isZero();
  }

  @Test
  void purgeOfAMissingKeyFails() {
    assertThat(f.run("04 04 6e 6f 70 65")).isEqualTo("00");
  }

  @Test
  void purgeOfAnExpiredRecordFailsAndReclaimsIt() {
    f.run("01 0a 00 04 01 00 01 6b");
    f.advance(Duration.ofSeconds(1));

    assertThat(f.run("04 01 6b")).isEqualTo("00");
    assertThat(f.store.size()).isZero();
    assertThat(f.store.expiredReclaimed()).isEqualTo(1);
  }

  @Test
  void keyCanBeInsertedAgainAfterPurge() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");
    f.run("04 03 61 62 63");

    assertThat(f.run("01 02 00 04 3c 00 03 61 62 63")).isEqualTo("01");
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 02 00 04 3c 00");
  }
}
