package io.sluice.verticles.server.kit;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

/**
 * Writes the same requests to a socket over and over, without reading, until the socket's own
 * write queue is full: the server has stopped reading and the kernels' buffers between them are
 * full. Gives up after a given number of bytes, so a server that never pushes back fails the test
 * instead of hanging it.
 */
public final class Flood {

  private final Vertx vertx;
  private final NetSocket socket;
  private final Buffer chunk;
  private final long giveUpAfterBytes;
  private final Promise<Long> backedUp = Promise.promise();
  private long written;

  private Flood(Vertx vertx, NetSocket socket, Buffer chunk, long giveUpAfterBytes) {
    this.vertx = vertx;
    this.socket = socket;
    this.chunk = chunk;
    this.giveUpAfterBytes = giveUpAfterBytes;
  }

  /** Completes with the bytes written once the writes back up (or the limit is reached). */
  public static Future<Long> untilBackedUp(Vertx vertx, NetSocket socket, Buffer chunk, long giveUpAfterBytes) {
    Flood flood = new Flood(vertx, socket, chunk, giveUpAfterBytes);
    vertx.runOnContext(v -> flood.write());
    return flood.backedUp.future();
  }

  private void write() {
    while (!socket.writeQueueFull()) {
      if (written >= giveUpAfterBytes) {
        backedUp.complete(written);
        return;
      }
      socket.write(chunk);
      written += chunk.length();
      if (written % (chunk.length() * 64L) == 0) {
        // Let the event loop flush and the server push back before writing more.
        vertx.runOnContext(v -> write());
        return;
      }
    }
    backedUp.complete(written);
  }
}
