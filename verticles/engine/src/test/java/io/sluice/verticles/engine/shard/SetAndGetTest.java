package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.get;
import static io.sluice.verticles.engine.shard.ShardFixture.set;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** SET creates or overwrites a buffer but never replaces a counter; GET reads it (spec §2.5, §2.6). */
class SetAndGetTest {

  private static final String SET_BUF_EHLO = "05 04 1e 00 03 04 00 62 75 66 45 48 4c 4f";
  private static final String SET_BUF_HELLO_MINUTES = "05 05 3c 00 03 06 00 62 75 66 48 45 4c 4c 4f 21";
  private static final String GET_BUF = "06 03 62 75 66";

  private final ShardFixture f = new ShardFixture();

  @Test
  void getOneMillisecondAfterSetReportsValueAndFlooredTtl() {
    assertThat(f.run(SET_BUF_EHLO)).isEqualTo("01");
    f.advanceMillis(1);

    assertThat(f.run(GET_BUF)).isEqualTo("01 04 1d 00 04 00 45 48 4c 4f");
  }

  @Test
  void setOverwritesABufferValueTtlTypeAndExpiry() {
    f.run(SET_BUF_EHLO);
    f.advance(Duration.ofSeconds(10));

    assertThat(f.run(SET_BUF_HELLO_MINUTES)).isEqualTo("01");
    f.advanceMillis(1);
    assertThat(f.run(GET_BUF)).isEqualTo("01 05 3b 00 06 00 48 45 4c 4c 4f 21");
    assertThat(f.store.buffers()).isEqualTo(1);
    assertThat(f.store.bufferBytes()).isEqualTo(6);
  }

  @Test
  void overwrittenBufferLivesByItsNewExpiry() {
    f.run(SET_BUF_EHLO);
    f.run(SET_BUF_HELLO_MINUTES);

    f.advance(Duration.ofSeconds(31));
    assertThat(f.run(GET_BUF)).startsWith("01 05");
    f.advance(Duration.ofMinutes(60).minusSeconds(31));
    assertThat(f.run(GET_BUF)).isEqualTo("00");
  }

  @Test
  void setNeverReplacesACounter() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");

    assertThat(f.run("05 04 1e 00 03 01 00 61 62 63 58")).isEqualTo("00");
    f.advanceMillis(1);
    assertThat(f.run("02 03 61 62 63")).isEqualTo("01 0a 00 04 3b 00");
    assertThat(f.store.counters()).isEqualTo(1);
    assertThat(f.store.buffers()).isZero();
    assertThat(f.store.bufferBytes()).isZero();
  }

  @Test
  void queryOnABufferSucceedsWithQuotaZero() {
    f.run(SET_BUF_HELLO_MINUTES);
    f.advanceMillis(1);

    assertThat(f.run("02 03 62 75 66")).isEqualTo("01 00 00 05 3b 00");
  }

  @Test
  void getOnACounterSucceedsWithAnEmptyValue() {
    f.run("01 0a 00 04 3c 00 03 61 62 63");
    f.advanceMillis(1);

    assertThat(f.run("06 03 61 62 63")).isEqualTo("01 04 3b 00 00 00");
  }

  @Test
  void getOfAMissingKeyFails() {
    assertThat(f.run("06 04 6e 6f 70 65")).isEqualTo("00");
  }

  @Test
  void emptyValueIsAllowed() {
    assertThat(f.run("05 04 1e 00 01 00 00 65")).isEqualTo("01");

    assertThat(f.run("06 01 65")).isEqualTo("01 04 1e 00 00 00");
    assertThat(f.store.buffers()).isEqualTo(1);
  }

  @Test
  void setOfAnExpiredCounterKeyCreatesABuffer() {
    f.run("01 0a 00 04 01 00 01 6b");
    f.advance(Duration.ofSeconds(1));

    assertThat(f.run("05 04 1e 00 01 02 00 6b 68 69")).isEqualTo("01");
    assertThat(f.run("06 01 6b")).isEqualTo("01 04 1e 00 02 00 68 69");
    assertThat(f.store.counters()).isZero();
    assertThat(f.store.buffers()).isEqualTo(1);
    assertThat(f.store.bufferBytes()).isEqualTo(2);
  }

  @Test
  void setOfANewKeyWithTtlZeroIsNeverVisible() {
    assertThat(f.run(set(0x04, 0, "z", new byte[] {1, 2}))).isEqualTo("01");

    assertThat(f.run(get("z"))).isEqualTo("00");
    assertThat(f.store.size()).isZero();
    assertThat(f.store.bufferBytes()).isZero();
  }

  @Test
  void overwritingABufferWithTtlZeroMakesItAbsentAndUncounted() {
    f.run(SET_BUF_EHLO);

    assertThat(f.run(set(0x04, 0, "buf", new byte[] {1, 2, 3}))).isEqualTo("01");
    assertThat(f.run(GET_BUF)).isEqualTo("00");
    assertThat(f.store.buffers()).isZero();
    assertThat(f.store.bufferBytes()).isZero();
  }

  @Test
  void valueIsBinarySafe() {
    f.run(set(0x04, 30, "bin", new byte[] {0, (byte) 0xff, 0x19, 0x01}));

    assertThat(f.run(get("bin"))).isEqualTo("01 04 1e 00 04 00 00 ff 19 01");
  }

  @Test
  void uint8MatchesTheSpecVector() {
    ShardFixture u8 = new ShardFixture(ValueSize.UINT8);
    assertThat(u8.run("05 04 1e 01 04 6b 45 48 4c 4f")).isEqualTo("01");
    u8.advanceMillis(1);

    assertThat(u8.run("06 01 6b")).isEqualTo("01 04 1d 04 45 48 4c 4f");
  }

  @Test
  void uint32MatchesTheSpecVector() {
    ShardFixture u32 = new ShardFixture(ValueSize.UINT32);
    assertThat(u32.run("05 04 1e 00 00 00 01 04 00 00 00 6b 45 48 4c 4f")).isEqualTo("01");
    u32.advanceMillis(1);

    assertThat(u32.run("06 01 6b")).isEqualTo("01 04 1d 00 00 00 04 00 00 00 45 48 4c 4f");
  }
}
