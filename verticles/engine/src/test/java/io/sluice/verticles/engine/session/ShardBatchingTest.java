package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static io.sluice.verticles.engine.session.SessionHarness.query;
import static io.sluice.verticles.engine.session.SessionHarness.queryReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.protocol.binary.codec.Request;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** One read's requests travel to each shard in ONE batch, and come back in ONE write. */
class ShardBatchingTest {

  private final SessionHarness h = new SessionHarness(4);

  private static List<String> describe(ShardBatch batch) {
    List<String> requests = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      Request r = batch.request(i);
      requests.add(r.type() + " " + new String(((Request.KeyRequest) r).key(), StandardCharsets.US_ASCII));
    }
    return requests;
  }

  @Test
  void requestsOfOneReadToTheSameShardTravelInOneBatchInOrder() {
    String a0 = h.keyOn(0, "x");
    String a1 = h.keyOn(0, "y");
    String a2 = h.keyOn(0, "z");
    String b0 = h.keyOn(3, "x");
    String b1 = h.keyOn(3, "y");

    h.read(insert(1, 60, a0), insert(1, 60, b0), query(a0), insert(1, 60, a1), WHOAMI, query(b1),
        insert(1, 60, a2), query(a2));

    assertThat(h.transport.dispatched).hasSize(2);
    ShardBatch first = h.transport.dispatched.get(0).batch;
    ShardBatch second = h.transport.dispatched.get(1).batch;
    assertThat(first.route()).isZero();
    assertThat(describe(first)).containsExactly(
        "INSERT " + a0, "QUERY " + a0, "INSERT " + a1, "INSERT " + a2, "QUERY " + a2);
    assertThat(second.route()).isEqualTo(3);
    assertThat(describe(second)).containsExactly("INSERT " + b0, "QUERY " + b1);
  }

  @Test
  void eachReadHasItsOwnBatches() {
    String a = h.keyOn(2, "k");

    h.read(insert(1, 60, a));
    h.read(query(a));

    assertThat(h.transport.dispatched).hasSize(2);
    assertThat(h.transport.dispatched).allSatisfy(d -> {
      assertThat(d.batch.route()).isEqualTo(2);
      assertThat(d.batch.size()).isEqualTo(1);
    });
  }

  @Test
  void shardsWithoutRequestsGetNoBatch() {
    String a = h.keyOn(1, "k");

    h.read(insert(1, 60, a), query(a), WHOAMI);

    assertThat(h.transport.dispatched).singleElement().satisfies(d -> assertThat(d.batch.route()).isEqualTo(1));
  }

  @Test
  void requestsOfOneReadAreWrittenInOneWrite() {
    List<String> frames = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String key = "key-" + i;
      frames.add(insert(i, 60, key));
      expected.add("01");
      frames.add(query(key));
      expected.add(queryReply(i, 60));
      if (i % 10 == 0) {
        frames.add(WHOAMI);
        expected.add("01 " + h.idHex());
      }
    }

    h.read(frames.toArray(new String[0]));
    assertThat(h.transport.dispatched.size()).isBetween(2, 4);
    h.transport.completeAllInReverse();

    assertThat(h.transport.writes).containsExactly(String.join(" ", expected));
    assertThat(h.session.pendingRequests()).isZero();
  }

  @Test
  void batchesFromOneReadCarryAllItsKeyRequests() {
    List<String> frames = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      frames.add(insert(1, 60, "k" + i));
    }

    h.read(frames.toArray(new String[0]));

    int total = h.transport.dispatched.stream().mapToInt(d -> d.batch.size()).sum();
    assertThat(total).isEqualTo(100);
    assertThat(h.transport.dispatched).hasSize(4);
    assertThat(h.transport.dispatched).extracting(d -> d.batch.route()).doesNotHaveDuplicates();
  }
}
