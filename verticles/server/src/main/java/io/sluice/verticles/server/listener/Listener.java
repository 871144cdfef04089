package io.sluice.verticles.server.listener;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * One front verticle's bound port, started and stopped the same way for Throttr (a {@link NetServer})
 * and for HTTP and gRPC (an {@link HttpServer}): TLS reloads reach the server from the moment it is
 * bound until it is closed. Vert.x gives the two servers the same methods but no common type, so a
 * listener holds the server's methods it needs.
 */
public final class Listener {

  private final ListenerGuards guards;
  private final TlsReloads.Updater tls;
  private final IntSupplier actualPort;
  private final BiFunction<Long, TimeUnit, Future<Void>> shutdown;
  private final Supplier<Future<Void>> close;
  private Future<?> bound;

  private Listener(ListenerGuards guards, TlsReloads.Updater tls, IntSupplier actualPort,
                   BiFunction<Long, TimeUnit, Future<Void>> shutdown, Supplier<Future<Void>> close) {
    this.guards = guards;
    this.tls = tls;
    this.actualPort = actualPort;
    this.shutdown = shutdown;
    this.close = close;
  }

  /** Binds the Throttr server to {@code host:port}. */
  public static Listener bind(NetServer server, ListenerGuards guards, String host, int port) {
    return new Listener(guards, server::updateSSLOptions, server::actualPort, server::shutdown, server::close)
        .listen(() -> server.listen(port, host));
  }

  /** Binds an HTTP (or gRPC) server to {@code host:port}. */
  public static Listener bind(HttpServer server, ListenerGuards guards, String host, int port) {
    return new Listener(guards, server::updateSSLOptions, server::actualPort, server::shutdown, server::close)
        .listen(() -> server.listen(port, host));
  }

  /** Joins TLS reloads before the bind: a reload while it binds reaches the server too. */
  private Listener listen(Supplier<Future<?>> listen) {
    guards.join(tls);
    bound = listen.get();
    return this;
  }

  /** Completes once the port is bound: what the verticle's start returns. */
  public Future<?> bound() {
    return bound;
  }

  /** The port actually bound (useful when configured as 0). */
  public int port() {
    return actualPort.getAsInt();
  }

  /**
   * Stops accepting, lets each connection finish what it is doing and close, and closes what is
   * still open after {@code timeout}.
   */
  public Future<Void> shutdown(Duration timeout) {
    return shutdown.apply(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Out of TLS reloads, and the port closed: what the verticle's stop returns. */
  public Future<Void> close() {
    guards.leave(tls);
    return close.get();
  }
}
