package io.sluice.verticles.server.listener;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.net.SocketAddress;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code --max-connections}: one count of the client connections of every TCP listener (Throttr
 * connections, HTTP connections, each WebSocket being one, and gRPC connections), shared by all
 * event loops. A connection past the limit is refused the moment it arrives (the listener closes it,
 * answers 503 on HTTP, or GOAWAY on gRPC), counted in {@code sluice_connections_rejected_total}, and logged at most once a
 * second; connections already open are not touched.
 */
public final class ConnectionGate {

  private static final System.Logger LOG = System.getLogger(ConnectionGate.class.getName());

  private final int max;
  private final AtomicInteger open = new AtomicInteger();
  private final Counter rejected;
  private final LogLimiter log;

  public ConnectionGate(int max, MeterRegistry metrics, Clock clock) {
    this.max = max;
    this.rejected = Counter.builder("sluice.connections.rejected")
        .description("client connections refused because --max-connections were open")
        .register(metrics);
    this.log = new LogLimiter(clock, 1_000_000_000L);
  }

  public int max() {
    return max;
  }

  /** Connections counted now. */
  public int open() {
    return open.get();
  }

  /**
   * Counts a new connection, until its channel closes; false when it is one too many, and then it
   * is not counted and the caller refuses it.
   */
  public boolean admit(Channel channel, String listener, SocketAddress peer) {
    if (open.incrementAndGet() > max) {
      open.decrementAndGet();
      rejected.increment();
      log.log(LOG, System.Logger.Level.WARNING, "refusing " + listener + " connection from " + peer + ": "
          + max + " connections are open (--max-connections)");
      return false;
    }
    channel.closeFuture().addListener(closed -> open.decrementAndGet());
    return true;
  }
}
