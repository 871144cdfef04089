package io.sluice.verticles.server.listener;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.settings.Defences;
import io.vertx.core.net.NetServerOptions;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What every TCP listener of one server shares to defend itself: the {@link Defences} as
 * configured, TLS and its reloads, the one connection count, and the clock its log limits use.
 *
 * @param tls present when the listeners speak TLS; servers register with it to be reloaded
 */
public record ListenerGuards(Defences defences, Optional<TlsReloads> tls, ConnectionGate gate, Clock clock) {

  /** No defence beyond the defaults, no connection limit to speak of: for code that embeds one front. */
  public static ListenerGuards none(Clock clock) {
    return new ListenerGuards(Defences.defaults(), Optional.empty(),
        new ConnectionGate(Integer.MAX_VALUE, new CompositeMeterRegistry(), clock), clock);
  }

  /** TLS and the idle timeout, in the options of a Throttr, HTTP (or gRPC) server. */
  public <T extends NetServerOptions> T configure(T options) {
    tls.ifPresent(reloads -> reloads.settings().configure(options));
    if (!defences.idleTimeout().isZero()) {
      // Neither read nor written for that long: a subscriber that receives pushes is not idle.
      options.setIdleTimeout((int) defences.idleTimeout().toMillis()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    }
    return options;
  }

  /** Lets TLS reloads reach {@code server} (its {@code updateSSLOptions}) until {@link #leave}. */
  public void join(TlsReloads.Updater server) {
    tls.ifPresent(reloads -> reloads.register(server));
  }

  public void leave(TlsReloads.Updater server) {
    tls.ifPresent(reloads -> reloads.unregister(server));
  }
}
