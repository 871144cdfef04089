package io.sluice.verticles.server.tcp;

import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.front.ConnectionLimits;
import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;

/**
 * The Throttr binary protocol over TCP. One instance per event loop; instances share the port and
 * Vert.x spreads accepted connections over them.
 */
public final class ThrottrTcpVerticle extends VerticleBase {

  private final Instance instance;
  private final ShardDirectory shards;
  private final String host;
  private final int port;
  private final ConnectionLimits limits;
  private final RequestDurations durations;
  private final ConnectionClosers closers;
  private NetServer server;

  public ThrottrTcpVerticle(Instance instance, ShardDirectory shards, String host, int port, ConnectionLimits limits) {
    this(instance, shards, host, port, limits, RequestDurations.none(), new ConnectionClosers());
  }

  /**
   * @param durations where the request durations of its connections are recorded
   * @param closers   where its connections register so that an operator can close them
   */
  public ThrottrTcpVerticle(Instance instance, ShardDirectory shards, String host, int port, ConnectionLimits limits,
                            RequestDurations durations, ConnectionClosers closers) {
    this.closers = closers;
    this.durations = durations;
    this.instance = instance;
    this.shards = shards;
    this.host = host;
    this.port = port;
    this.limits = limits;
  }

  @Override
  public Future<?> start() {
    FrontLoop loop = FrontLoop.on(context, instance, shards, limits, durations, closers);
    server = vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true))
        .connectHandler(socket -> new TcpConnection(socket, loop).start());
    return server.listen(port, host);
  }

  /** The port actually bound (useful when configured as 0). */
  public int actualPort() {
    return server.actualPort();
  }

  @Override
  public Future<?> stop() {
    return server.close();
  }
}
