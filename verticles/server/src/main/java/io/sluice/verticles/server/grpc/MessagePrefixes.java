package io.sluice.verticles.server.grpc;

import io.vertx.core.buffer.Buffer;

/**
 * Reads the 5-byte prefix of each gRPC message (the compressed flag, then the length) as a call's
 * bytes go by, however they are split, to tell whether any message is flagged compressed.
 */
final class MessagePrefixes {

  private static final int PREFIX_BYTES = 5;

  /** Bytes of the current prefix read so far. */
  private int prefixRead;
  private long length;
  /** Bytes of the current message's body still to pass. */
  private long bodyLeft;

  /** True when a message that starts in {@code chunk} has a compressed flag other than 0. */
  boolean anyCompressed(Buffer chunk) {
    int at = 0;
    int size = chunk.length();
    while (at < size) {
      if (bodyLeft > 0) {
        int skipped = (int) Math.min(bodyLeft, size - at);
        bodyLeft -= skipped;
        at += skipped;
        continue;
      }
      byte next = chunk.getByte(at++);
      if (prefixRead == 0) {
        if (next != 0) {
          return true;
        }
      } else {
        length = (length << 8) | (next & 0xff);
      }
      if (++prefixRead == PREFIX_BYTES) {
        bodyLeft = length;
        prefixRead = 0;
        length = 0;
      }
    }
    return false;
  }
}
