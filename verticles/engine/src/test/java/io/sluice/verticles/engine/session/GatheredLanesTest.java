package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.STATS;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static io.sluice.verticles.engine.session.SessionHarness.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.shard.ShardBatch;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Where routes share shard threads (a cluster node's partitions on its shard verticles), a read
 * travels as one batch per shard thread, each request carrying its route, and is answered exactly
 * as the same read is where each route has a thread of its own.
 */
class GatheredLanesTest {

  private static final int ROUTES = 6;
  private static final int LANES = 2;

  /** Two keys on each route, written then read, then (when asked) the stats of every route, in one read. */
  private static String[] readOver(SessionHarness h, boolean withStats) {
    List<String> frames = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int route = 0; route < ROUTES; route++) {
      keys.add(h.keyOn(route, "a"));
      keys.add(h.keyOn(route, "b"));
    }
    keys.forEach(key -> frames.add(insert(3, 60, key)));
    keys.forEach(key -> frames.add(query(key)));
    if (withStats) {
      frames.add(STATS);
    }
    return frames.toArray(String[]::new);
  }

  @Test
  void aReadTravelsAsOneBatchPerShardThreadEachRequestWithItsRoute() {
    SessionHarness h = SessionHarness.onLanes(ROUTES, LANES);
    h.read(readOver(h, true));

    assertThat(h.transport.dispatched).hasSize(LANES);
    for (FakeTransport.Dispatch dispatch : h.transport.dispatched) {
      ShardBatch batch = dispatch.batch;
      assertThat(batch.isGathered()).isTrue();
      // 12 key requests and one STATS per route of the lane.
      assertThat(batch.size()).isEqualTo(ROUTES / LANES * 5);
      for (int slot = 0; slot < batch.size(); slot++) {
        assertThat(batch.partitionOf(slot) % LANES).isEqualTo(batch.route());
      }
    }
  }

  @Test
  void itIsAnsweredAsWhereEachRouteHasItsOwnThread() {
    SessionHarness gathered = SessionHarness.onLanes(ROUTES, LANES);
    SessionHarness apart = new SessionHarness(ROUTES);
    // Without STATS: the order of keys inside a store is each store's own (a keyed hash).
    gathered.read(readOver(gathered, false));
    apart.read(readOver(apart, false));
    gathered.transport.completeAllInReverse();
    apart.transport.completeAllInReverse();

    assertThat(apart.transport.dispatched).hasSize(ROUTES);
    assertThat(gathered.transport.writes).hasSize(1).isEqualTo(apart.transport.writes);
  }
}
