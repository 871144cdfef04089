package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.purge;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.Request;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A batch runs its requests in order, with each reply delimited by replyEnd. */
class ShardBatchExecutionTest {

  private final ShardFixture f = new ShardFixture();

  @Test
  void requestsRunInOrderAndEachReplyIsDelimited() {
    ShardBatch batch = f.execute(
        insert(1, 0x04, 60, "k"),
        query("k"),
        insert(2, 0x04, 60, "k"),
        purge("k"),
        query("k"));

    assertThat(ShardFixture.replies(batch)).containsExactly("01", "01 01 00 04 3c 00", "00", "01", "00");
  }

  @Test
  void pipelinedSpecVectorThirtyThreeInOneBatch() {
    ShardBatch batch = f.executeHex(
        "01 01 00 04 3c 00 02 70 31",
        "01 01 00 04 3c 00 02 70 32",
        "02 02 70 31",
        "04 02 70 32");

    // The manual clock does not move within the batch, so the QUERY sees the full 60 s.
    assertThat(ShardFixture.replies(batch)).containsExactly("01", "01", "01 01 00 04 3c 00", "01");
  }

  @Test
  void largeBatchKeepsEveryReply() {
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      requests.add(insert(i & 0xff, 0x04, 60, "k" + i));
    }
    for (int i = 0; i < 300; i++) {
      requests.add(query("k" + i));
    }
    ShardBatch batch = f.execute(requests.toArray(new Request[0]));

    List<String> replies = ShardFixture.replies(batch);
    assertThat(replies).hasSize(600);
    for (int i = 0; i < 300; i++) {
      assertThat(replies.get(i)).isEqualTo("01");
      assertThat(replies.get(300 + i)).isEqualTo(f.queryReply(i & 0xff, 0x04, 60));
    }
  }

  @Test
  void batchKeepsItsShardAndRequests() {
    ShardBatch batch = new ShardBatch(3);
    Request q = query("a");
    batch.add(q);

    assertThat(batch.route()).isEqualTo(3);
    assertThat(batch.size()).isEqualTo(1);
    assertThat(batch.request(0)).isSameAs(q);
    assertThat(batch.collected(0)).isNull();
  }

  @Test
  void requestThatNoShardServesFailsAlone() {
    ShardBatch batch = new ShardBatch(0);
    batch.add(Request.Bare.WHOAMI);
    batch.add(insert(1, 0x04, 60, "k"));

    f.shard.execute(batch);

    assertThat(batch.failure(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(ShardFixture.replies(batch)).containsExactly("00", "01");
  }

  /** A task that throws what it is given, and keeps what the shard tells it. */
  private static final class ThrowingTask implements ShardTask {
    private final Throwable toThrow;
    Throwable told;

    ThrowingTask(Throwable toThrow) {
      this.toThrow = toThrow;
    }

    public byte[] key() {
      return "t".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    public void run(KeyState state, long nowNanos) {
      state.put(new byte[] {'x'}, 60_000_000_000L);
      if (toThrow instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) toThrow;
    }

    public void failed(Throwable error) {
      told = error;
    }
  }

  @Test
  void anEntryThatThrowsFailsAloneAndEveryOtherEntryIsAnswered() {
    ThrowingTask outOfMemory = new ThrowingTask(new OutOfMemoryError("test"));
    KeyLookup lookup = new KeyLookup("k".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    ShardBatch batch = new ShardBatch(0);
    batch.add(insert(1, 0x04, 60, "k"));
    batch.add(new Request.Query(null));
    batch.add(outOfMemory);
    batch.add(query("k"));
    batch.add(Request.Bare.LIST);
    batch.add((ShardScan) record -> {
      throw new StackOverflowError();
    });
    batch.add(lookup);

    f.shard.execute(batch);

    List<String> replies = ShardFixture.replies(batch);
    assertThat(replies.get(0)).isEqualTo("01");
    assertThat(replies.get(1)).as("a Throttr request answers its failure status").isEqualTo("00");
    assertThat(replies.get(3)).isEqualTo("01 01 00 04 3c 00");
    assertThat(batch.failure(1)).isInstanceOf(NullPointerException.class);
    assertThat(outOfMemory.told).isSameAs(batch.failure(2)).isInstanceOf(OutOfMemoryError.class);
    assertThat(batch.failure(3)).isNull();
    assertThat(ShardFixture.collected(batch, 4).keys()).hasSize(2);
    assertThat(batch.failure(5)).isInstanceOf(StackOverflowError.class);
    assertThat(batch.failure(6)).isNull();
    assertThat(lookup.detail()).isNotNull();
    assertThat(f.run(query("t"))).as("what the task wrote before it threw stays").isEqualTo("01 00 00 04 3c 00");
  }
}
