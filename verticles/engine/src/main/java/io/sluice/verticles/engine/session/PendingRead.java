package io.sluice.verticles.engine.session;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.protocol.binary.codec.Request;

import io.sluice.verticles.engine.channel.OtherNodes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The requests decoded from one socket read, waiting for their shards, in one batch per shard
 * thread (the router's lanes). Key requests go to the one route that owns the key, instance-wide
 * listings to every route, the rest are answered locally,
 * but a CONNECTION for an ID none of this node's connections has, which the other nodes are asked.
 */
final class PendingRead {

  static final int LOCAL = -1;
  static final int EVERY_SHARD = -2;
  /** A CONNECTION asked of the other nodes of a cluster. */
  static final int ELSEWHERE = -3;

  private final ShardRouter router;
  private final boolean gathered;
  private Request[] requests = new Request[16];
  /** Per request, its lane's batch (a route's lane) or one of the markers. */
  private int[] lanes = new int[16];
  private int size;
  /** How many of its requests are asked of the other nodes ({@link #ELSEWHERE}). */
  int askedElsewhere;
  /** Per request asked elsewhere, what the other nodes answered (null: unknown there too). */
  private byte[][] answeredElsewhere;
  final ShardBatch[] batches;
  int outstanding;
  /** What the session holds for this read: its requests, and its shards' replies once back. */
  long heldBytes;
  /** The requests whose answer needs the other nodes' part (a cluster's channel requests), in order; null while none. */
  List<Request> askingOtherNodes;
  /** Their parts once every node answered, consumed in order while the read is answered. */
  List<OtherNodes> otherNodes;
  private int nextOtherNodes;
  /** Set while answered when a SUBSCRIBE of it added a subscription in a cluster: its replies wait until every node hears it. */
  boolean subscribed;

  /** @param router where the requests go: one batch per {@linkplain ShardRouter#lanes lane} */
  PendingRead(ShardRouter router) {
    this.router = router;
    this.gathered = router.gathersRoutes();
    this.batches = new ShardBatch[router.lanes()];
  }

  /**
   * @param request what the client sent (answered in this order)
   * @param target  what runs: the request itself, or the request an EVENT carries
   */
  void add(Request request, Request target, int route) {
    if (size == requests.length) {
      requests = Arrays.copyOf(requests, size * 2);
      lanes = Arrays.copyOf(lanes, size * 2);
    }
    int lane = route >= 0 ? router.laneOf(route) : route;
    requests[size] = request;
    lanes[size] = lane;
    size++;
    if (route >= 0) {
      addTo(lane, route, target);
    } else if (route == ELSEWHERE) {
      askedElsewhere++;
    } else if (route == EVERY_SHARD) {
      for (int each = 0; each < router.routes(); each++) {
        addTo(router.laneOf(each), each, target);
      }
    }
  }

  private void addTo(int lane, int route, Request target) {
    ShardBatch batch = batches[lane];
    if (batch == null) {
      batch = gathered ? ShardBatch.gathered(lane) : new ShardBatch(lane);
      batches[lane] = batch;
    }
    if (gathered) {
      batch.add(target, route);
    } else {
      batch.add(target);
    }
  }

  int size() {
    return size;
  }

  Request request(int index) {
    return requests[index];
  }

  /** The lane of request {@code index} (its batch), or one of the markers. */
  int lane(int index) {
    return lanes[index];
  }

  void askOtherNodes(Request target) {
    if (askingOtherNodes == null) {
      askingOtherNodes = new ArrayList<>();
    }
    askingOtherNodes.add(target);
  }

  /** The other nodes' part of the next request that asked them. */
  OtherNodes nextOtherNodes() {
    return otherNodes.get(nextOtherNodes++);
  }

  void answeredElsewhere(int index, byte[] answer) {
    if (answeredElsewhere == null) {
      answeredElsewhere = new byte[size][];
    }
    answeredElsewhere[index] = answer;
  }

  byte[] answeredElsewhere(int index) {
    return answeredElsewhere == null ? null : answeredElsewhere[index];
  }

  boolean isComplete() {
    return outstanding == 0;
  }
}
