package io.sluice.verticles.engine.session;

import io.netty.buffer.ByteBuf;

/** What a {@link ThrottrSession} needs from the socket; implemented by each front's adapter. */
public interface Transport {

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
