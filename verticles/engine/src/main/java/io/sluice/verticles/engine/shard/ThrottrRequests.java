package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.Responses;

import java.util.Arrays;

/**
 * The Throttr requests of one {@link ShardBatch}: one work item for all of them, filling the slots
 * they hold, so that a request costs the batch a slot and nothing else (no object per request).
 * Results: each request's reply bytes in {@link ShardBatch#replies}, and a listing's part in
 * {@link ShardBatch#collected}.
 */
public final class ThrottrRequests implements ShardWork {

  /** Indexed by the batch's slot; null at the slots of other work. */
  private Request[] requests;

  ThrottrRequests(int capacity) {
    requests = new Request[capacity];
  }

  void put(int slot, Request request) {
    if (slot >= requests.length) {
      requests = Arrays.copyOf(requests, Math.max(slot + 1, requests.length * 2));
    }
    requests[slot] = request;
  }

  /** The request at {@code slot}. */
  Request at(int slot) {
    return requests[slot];
  }

  @Override
  public void run(ShardContext shard) {
    KeyRequests.run(shard, requests[shard.slot()]);
  }

  @Override
  public void fail(Throwable error, ByteBuf replies) {
    if (replies != null) {
      // A listing's byte is never read: the session answers it 00 from the failure.
      Responses.status(replies, false);
    }
  }

  @Override
  public void accept(Kinds kinds, int slot) {
    kinds.request(requests[slot]);
  }
}
