package io.sluice.core.shard;

import static io.sluice.core.shard.ShardFixture.insert;
import static io.sluice.core.shard.ShardFixture.purge;
import static io.sluice.core.shard.ShardFixture.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.throttr.codec.Request;

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

    assertThat(batch.shard()).isEqualTo(3);
    assertThat(batch.size()).isEqualTo(1);
    assertThat(batch.request(0)).isSameAs(q);
    assertThat(batch.collected(0)).isNull();
  }

  @Test
  void requestThatNoShardServesIsRejected() {
    ShardBatch batch = new ShardBatch(0);
    batch.add(Request.Bare.WHOAMI);

    assertThatThrownBy(() -> f.shard.execute(batch)).isInstanceOf(IllegalArgumentException.class);
  }
}
