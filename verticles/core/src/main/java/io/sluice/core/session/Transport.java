package io.sluice.core.session;

import io.netty.buffer.ByteBuf;
import io.sluice.core.shard.ShardBatch;

import java.util.function.Consumer;

/** What a {@link ThrottrSession} needs from the socket and the shards; implemented by each front's adapter. */
public interface Transport {

  /**
   * Runs a batch on its shard. {@code done} must run later on the session's own thread with the
   * filled batch (the same object when the shard is in this process), or at once when the shard
   * lives on this very thread.
   */
  void dispatch(ShardBatch batch, Consumer<ShardBatch> done);

  /**
   * Writes the replies of one or more reads, in order, as one write; reports its bytes to
   * {@link ThrottrSession#replyWritten}, once, when the socket has taken them (or the connection is gone).
   */
  void write(ByteBuf replies);

  void pauseReading();

  /**
   * Reads again. Not at once: from a later turn of the session's thread, first resume the decoder
   * (it may hold input back that the session asked it not to decode yet) and end that read, then,
   * if the session is still {@link ThrottrSession#reading}, read from the socket.
   */
  void resumeReading();

  /** Closes the connection because of bad input; the reason is for the log. */
  void close(String reason);
}
