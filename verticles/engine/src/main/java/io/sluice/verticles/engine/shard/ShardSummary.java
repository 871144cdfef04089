package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.storage.Bound;
import io.sluice.verticles.engine.storage.StoreLimits;

/**
 * What one shard holds, for INFO and the dashboard: INFO's {@link ShardListing} part.
 *
 * @param estimatedBytes    the memory estimate its limit is held to
 * @param evictedForKeys    records evicted to stay within its share of --max-keys
 * @param evictedForMemory  records evicted to stay within its share of --max-memory
 * @param rejected          writes refused because it was full
 * @param limits            its share of the limits
 */
public record ShardSummary(long records, long counters, long buffers, long bufferBytes, long expiredReclaimed,
                           long estimatedBytes, long evictedForKeys, long evictedForMemory, long rejected,
                           StoreLimits limits) implements ShardListing {

  public long evicted(Bound reason) {
    return reason == Bound.KEYS ? evictedForKeys : evictedForMemory;
  }

  @Override
  public void joinInto(Parts parts) {
    parts.add(this);
  }

  @Override
  public void write(ByteBuf out) {
    ListingWire.writeSummary(out, this);
  }
}
