package io.sluice.verticles.engine.shard;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A ShardTask reads and writes its key's buffer record on the shard, visible to Throttr GET. */
class ShardTaskTest {

  private final ShardFixture fixture = new ShardFixture();

  /** Appends one byte to the key's state, as a strategy would update its state string. */
  private static final class Append implements ShardTask {
    private final byte[] key;
    private final long ttlNanos;
    byte[] seen;

    Append(String key, long ttlNanos) {
      this.key = key.getBytes(StandardCharsets.US_ASCII);
      this.ttlNanos = ttlNanos;
    }

    public byte[] key() {
      return key;
    }

    public void run(KeyState state, long nowNanos) {
      seen = state.value();
      byte[] before = seen == null ? new byte[0] : seen;
      byte[] after = java.util.Arrays.copyOf(before, before.length + 1);
      after[before.length] = 'x';
      state.put(after, ttlNanos);
    }

    public void failed(Throwable error) {
      throw new AssertionError("the task failed", error);
    }
  }

  private Append run(Append task) {
    ShardBatch batch = new ShardBatch(0);
    batch.add(task);
    fixture.shard.execute(batch);
    assertThat(batch.firstFailure()).isNull();
    return task;
  }

  @Test
  void aTaskSeesWhatTheLastOneStoredAndGetShowsIt() {
    assertThat(run(new Append("state", 5_000_000_000L)).seen).isNull();
    assertThat(run(new Append("state", 5_000_000_000L)).seen).containsExactly('x');
    fixture.clock.advance(Duration.ofMillis(1));
    // GET "state": 01 | ttl type seconds | ttl 4 (floor of 4.999 s) | V = 2 | "xx"
    assertThat(fixture.run("06 05 73 74 61 74 65")).isEqualTo("01 04 04 00 02 00 78 78");
  }

  @Test
  void theStateExpiresWithItsTtl() {
    run(new Append("state", 1_000_000_000L));
    fixture.clock.advance(Duration.ofSeconds(1));
    assertThat(run(new Append("state", 1_000_000_000L)).seen).isNull();
  }

  @Test
  void aCounterUnderTheKeyIsNotAState() {
    fixture.run("01 0a 00 04 3c 00 05 73 74 61 74 65");
    boolean[] seen = new boolean[2];
    ShardBatch batch = new ShardBatch(0);
    batch.add(new ShardTask() {
      public byte[] key() {
        return "state".getBytes(StandardCharsets.US_ASCII);
      }

      public void run(KeyState state, long nowNanos) {
        seen[0] = state.isCounter();
        seen[1] = state.value() == null;
      }

      public void failed(Throwable error) {
        throw new AssertionError("the task failed", error);
      }
    });
    fixture.shard.execute(batch);

    assertThat(batch.firstFailure()).isNull();
    assertThat(seen).containsExactly(true, true);
  }
}
