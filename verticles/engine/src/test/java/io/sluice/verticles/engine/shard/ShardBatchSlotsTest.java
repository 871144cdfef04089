package io.sluice.verticles.engine.shard;

import static io.sluice.verticles.engine.shard.ShardFixture.insert;
import static io.sluice.verticles.engine.shard.ShardFixture.key;
import static io.sluice.verticles.engine.shard.ShardFixture.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.Request;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A batch keeps its Throttr requests and its other work in separate slots of one order: however
 * they interleave and however far the batch grows, each entry runs as itself, in order.
 */
class ShardBatchSlotsTest {

  private final ShardFixture f = new ShardFixture();

  @Test
  void requestsAndOtherWorkInterleavedPastTheFirstSlotsRunInOrder() {
    f.run(insert(9, 0x04, 60, "k"));
    ShardBatch batch = new ShardBatch(0);
    List<KeyLookup> lookups = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      batch.add(query("k"));
      batch.add(new Request.Purge(key("absent")));
      KeyLookup lookup = new KeyLookup(key("k"));
      lookups.add(lookup);
      batch.add(lookup);
    }
    f.shard.execute(batch);

    assertThat(batch.size()).isEqualTo(36);
    for (int i = 0; i < batch.size(); i += 3) {
      assertThat(batch.request(i)).isInstanceOf(Request.Query.class);
      assertThat(batch.entry(i)).isInstanceOf(ThrottrRequests.class);
      assertThat(batch.request(i + 1)).isInstanceOf(Request.Purge.class);
      assertThat(batch.request(i + 2)).isNull();
      assertThat(batch.entry(i + 2)).isSameAs(lookups.get(i / 3));
    }
    List<String> replies = ShardFixture.replies(batch);
    for (int i = 0; i < batch.size(); i += 3) {
      assertThat(replies.get(i)).startsWith("01 09 00");
      assertThat(replies.get(i + 1)).isEqualTo("00");
      assertThat(replies.get(i + 2)).isEmpty();
    }
    assertThat(lookups).allSatisfy(lookup -> assertThat(lookup.detail().quota()).isEqualTo(9));
  }
}
