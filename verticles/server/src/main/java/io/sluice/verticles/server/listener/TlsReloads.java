package io.sluice.verticles.server.listener;

import io.sluice.verticles.server.tls.TlsSettings;
import io.sluice.verticles.server.tls.KeyPairCheck;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.ServerSSLOptions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * The running servers whose certificates come from one {@link TlsSettings}: {@link #reload()} reads
 * the files again and hands them to every one, with no restart; connections already open keep the
 * certificate they were made with. A server registers on start and leaves on stop (a Vert.x
 * {@code NetServer} or {@code HttpServer}: both offer {@code updateSSLOptions}). Reloads are counted
 * in {@code sluice_tls_reloads_total{result="ok"|"refused"}}.
 */
public final class TlsReloads {

  private static final System.Logger LOG = System.getLogger(TlsReloads.class.getName());

  /** A server's {@code updateSSLOptions(options, force)}. */
  public interface Updater extends BiFunction<ServerSSLOptions, Boolean, Future<Boolean>> {
  }

  private final Vertx vertx;
  private final TlsSettings settings;
  private final List<Updater> servers = new CopyOnWriteArrayList<>();
  private final Counter reloaded;
  private final Counter refused;

  public TlsReloads(Vertx vertx, TlsSettings settings, MeterRegistry metrics) {
    this.vertx = vertx;
    this.settings = settings;
    this.reloaded = counter(metrics, "ok");
    this.refused = counter(metrics, "refused");
  }

  /**
   * Checks at start that the key matches the certificate: a pair that does not stops the start,
   * where it would otherwise fail every handshake.
   */
  public static Future<Void> check(Vertx vertx, TlsSettings settings) {
    return vertx.executeBlocking(() -> {
      KeyPairCheck.read(settings.certificate(), settings.key());
      return null;
    }, false);
  }

  public TlsSettings settings() {
    return settings;
  }

  public void register(Updater server) {
    servers.add(server);
  }

  public void unregister(Updater server) {
    servers.remove(server);
  }

  /**
   * Reads the certificate, key and client CA files again and gives them to every server. Files that
   * do not load (half written) or a key that does not match the certificate (the certificate
   * renewed before its key is written) leave every server with the certificate it had, and say why
   * in one WARNING line naming the files.
   */
  public Future<Void> reload() {
    return vertx.executeBlocking(() -> settings.sslOptions(KeyPairCheck.read(settings.certificate(), settings.key())),
        false).compose(options -> {
      // force: equal options would be skipped.
      List<Future<Boolean>> updates = servers.stream().map(server -> server.apply(options, true)).toList();
      return Future.all(updates);
    }).onSuccess(v -> {
      reloaded.increment();
      LOG.log(System.Logger.Level.INFO, "TLS certificate reloaded from " + settings.certificate() + " and "
          + settings.key());
    }).onFailure(e -> {
      refused.increment();
      LOG.log(System.Logger.Level.WARNING, "TLS certificate not reloaded from " + settings.certificate() + " and "
          + settings.key() + ", the previous one stays in use: " + e.getMessage());
    }).mapEmpty();
  }

  private static Counter counter(MeterRegistry metrics, String result) {
    return Counter.builder("sluice.tls.reloads")
        .description("Reloads of the TLS certificate and key files: ok, or refused with the previous pair kept")
        .tag("result", result)
        .register(metrics);
  }
}
