package io.sluice.verticles.server.tcp;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.front.ConnectionLimits;
import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.shard.ShardDirectory;
import io.sluice.verticles.server.tls.HandshakeFailures;
import io.sluice.verticles.server.tls.TlsReloads;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;

import java.util.Optional;

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
  private final Optional<TlsReloads> tls;
  private NetServer server;
  private TlsReloads.Updater tlsUpdater;

  /** @param tls when present, the port speaks TLS only, and its certificate is reloaded through it */
  public ThrottrTcpVerticle(Instance instance, ShardDirectory shards, String host, int port, ConnectionLimits limits,
                            Optional<TlsReloads> tls) {
    this.instance = instance;
    this.shards = shards;
    this.host = host;
    this.port = port;
    this.limits = limits;
    this.tls = tls;
  }

  @Override
  public Future<?> start() {
    FrontLoop loop = FrontLoop.on(context, instance, shards, limits);
    NetServerOptions options = new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true);
    tls.ifPresent(reloads -> reloads.settings().configure(options));
    HandshakeFailures handshakeFailures = new HandshakeFailures("Throttr", instance.clock());
    server = vertx.createNetServer(options)
        .exceptionHandler(handshakeFailures::failed)
        .connectHandler(socket -> new TcpConnection(socket, loop).start());
    tlsUpdater = server::updateSSLOptions;
    tls.ifPresent(reloads -> reloads.register(tlsUpdater));
    return server.listen(port, host);
  }

  /** The port actually bound (useful when configured as 0). */
  public int actualPort() {
    return server.actualPort();
  }

  @Override
  public Future<?> stop() {
    tls.ifPresent(reloads -> reloads.unregister(tlsUpdater));
    return server.close();
  }
}
