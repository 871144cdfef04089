package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Responses;

/**
 * The Throttr requests of a {@link ShardBatch}: one stateless work item, {@link #ALL}, stands at
 * every request's slot, and the batch holds the request itself ({@link ShardBatch#request}), so a
 * request costs the batch a slot and no object of its own. Results: each request's reply bytes in
 * {@link ShardBatch#replies}, and a listing's part in {@link ShardBatch#collected}.
 */
public final class ThrottrRequests implements ShardWork {

  /** The work item of every Throttr request of every batch. */
  static final ThrottrRequests ALL = new ThrottrRequests();

  private ThrottrRequests() {
  }

  @Override
  public void run(ShardContext shard) {
    KeyRequests.run(shard, shard.request());
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
    kinds.request(slot);
  }
}
