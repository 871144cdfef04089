package io.sluice.verticles.engine.session;

import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.protocol.binary.codec.Request;

import io.sluice.verticles.engine.channel.OtherNodes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The requests decoded from one socket read, waiting for their shards. Key requests go to the one
 * shard that owns the key, instance-wide listings to every shard, the rest are answered locally,
 * but a CONNECTION for an ID none of this node's connections has, which the other nodes are asked.
 */
final class PendingRead {

  static final int LOCAL = -1;
  static final int EVERY_SHARD = -2;
  /** A CONNECTION asked of the other nodes of a cluster. */
  static final int ELSEWHERE = -3;

  private Request[] requests = new Request[16];
  private int[] routes = new int[16];
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

  PendingRead(int shards) {
    this.batches = new ShardBatch[shards];
  }

  /**
   * @param request what the client sent (answered in this order)
   * @param target  what runs: the request itself, or the request an EVENT carries
   */
  void add(Request request, Request target, int route) {
    if (size == requests.length) {
      requests = Arrays.copyOf(requests, size * 2);
      routes = Arrays.copyOf(routes, size * 2);
    }
    requests[size] = request;
    routes[size] = route;
    size++;
    if (route >= 0) {
      batchFor(route).add(target);
    } else if (route == ELSEWHERE) {
      askedElsewhere++;
    } else if (route == EVERY_SHARD) {
      for (int shard = 0; shard < batches.length; shard++) {
        batchFor(shard).add(target);
      }
    }
  }

  int size() {
    return size;
  }

  Request request(int index) {
    return requests[index];
  }

  int route(int index) {
    return routes[index];
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

  private ShardBatch batchFor(int shard) {
    ShardBatch batch = batches[shard];
    if (batch == null) {
      batch = new ShardBatch(shard);
      batches[shard] = batch;
    }
    return batch;
  }
}
