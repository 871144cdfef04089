package io.sluice.verticles.server.tcp;

import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.netty.channel.Channel;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.tls.HandshakeFailures;
import io.sluice.verticles.server.listener.Listener;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;

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
  private final ListenerGuards guards;
  private Listener listener;

  /**
   * @param guards    TLS, the connection limit and the idle timeout this port shares with the others
   * @param durations where the request durations of its connections are recorded
   * @param closers   where its connections register so that an operator can close them
   */
  public ThrottrTcpVerticle(Instance instance, ShardDirectory shards, String host, int port, ConnectionLimits limits,
                            ListenerGuards guards, RequestDurations durations, ConnectionClosers closers) {
    this.closers = closers;
    this.durations = durations;
    this.instance = instance;
    this.shards = shards;
    this.host = host;
    this.port = port;
    this.limits = limits;
    this.guards = guards;
  }

  @Override
  public Future<?> start() {
    FrontLoop loop = FrontLoop.on(context, instance, shards, limits, durations, closers);
    HandshakeFailures handshakeFailures = new HandshakeFailures("Throttr", guards.clock());
    NetServer server = vertx.createNetServer(guards.configure(new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true)))
        .exceptionHandler(handshakeFailures::failed)
        .connectHandler(socket -> accept(socket, loop));
    listener = Listener.bind(server, guards, host, port);
    return listener.bound();
  }

  /** Past --max-connections the connection is closed at once, before anything is read from it. */
  private void accept(NetSocket socket, FrontLoop loop) {
    Channel channel = ((NetSocketInternal) socket).channelHandlerContext().channel();
    if (guards.gate().admit(channel, "Throttr", socket.remoteAddress())) {
      new TcpConnection(socket, loop).start();
    } else {
      socket.close();
    }
  }

  /**
   * Stops accepting, lets each connection answer what it has read and close, and closes what is
   * still open after {@code timeout}.
   */
  public Future<Void> shutdown(java.time.Duration timeout) {
    return listener.shutdown(timeout);
  }

  /** The port actually bound (useful when configured as 0). */
  public int actualPort() {
    return listener.port();
  }

  @Override
  public Future<?> stop() {
    return listener.close();
  }
}
