package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

class KeyLookupTest {

  private final ShardFixture fixture = new ShardFixture();

  private KeyDetail lookUp(String key) {
    KeyLookup lookup = new KeyLookup(key.getBytes(StandardCharsets.UTF_8));
    ShardBatch batch = new ShardBatch(0);
    batch.add(lookup);
    fixture.shard.execute(batch);
    return lookup.detail();
  }

  @Test
  void seesACounterWithItsRemainingTtlWithoutCountingARead() {
    fixture.run("01 0700 04 3c00 01 6b"); // INSERT k quota 7, 60 s
    fixture.clock.advance(Duration.ofSeconds(10));
    KeyDetail detail = lookUp("k");
    assertThat(detail.counter()).isTrue();
    assertThat(detail.quota()).isEqualTo(7);
    assertThat(detail.ttlType()).isEqualTo(4);
    assertThat(detail.ttl()).isEqualTo(50);
    fixture.clock.advance(Duration.ofMinutes(1));
    KeyDetail later = lookUp("k");
    assertThat(later).isNull(); // expired after 60 s
  }

  @Test
  void seesABufferAndItsFigures() {
    fixture.run("05 04 7800 01 0200 6b 6869"); // SET k = "hi", 120 s
    fixture.run("06 01 6b"); // GET k: one read
    fixture.clock.advance(Duration.ofMinutes(1).minusSeconds(1));
    lookUp("k");
    fixture.clock.advance(Duration.ofSeconds(2));
    // SET and GET fell in the previous one-minute window, with the first lookup, which counted nothing.
    KeyDetail detail = lookUp("k");
    assertThat(detail.counter()).isFalse();
    assertThat(new String(detail.buffer(), StandardCharsets.UTF_8)).isEqualTo("hi");
    assertThat(detail.readsPerMinute()).isEqualTo(1);
    assertThat(detail.totalReads()).isEqualTo(1);
    assertThat(detail.writesPerMinute()).isEqualTo(1);
    assertThat(detail.totalWrites()).isEqualTo(1);
  }

  @Test
  void findsNothingForAnAbsentKey() {
    assertThat(lookUp("missing")).isNull();
  }
}
