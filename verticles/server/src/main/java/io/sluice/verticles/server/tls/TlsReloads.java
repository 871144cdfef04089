package io.sluice.verticles.server.tls;

import io.vertx.core.Future;
import io.vertx.core.net.ServerSSLOptions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * The running servers whose certificates come from one {@link TlsSettings}: {@link #reload()} reads
 * the files again and hands them to every one, with no restart; connections already open keep the
 * certificate they were made with. A server registers on start and leaves on stop (a Vert.x
 * {@code NetServer} or {@code HttpServer}: both offer {@code updateSSLOptions}).
 */
public final class TlsReloads {

  private static final System.Logger LOG = System.getLogger(TlsReloads.class.getName());

  /** A server's {@code updateSSLOptions(options, force)}. */
  public interface Updater extends BiFunction<ServerSSLOptions, Boolean, Future<Boolean>> {
  }

  private final TlsSettings settings;
  private final List<Updater> servers = new CopyOnWriteArrayList<>();

  public TlsReloads(TlsSettings settings) {
    this.settings = settings;
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
   * do not load (half written, a key that does not match) leave every server with the certificate
   * it had, and say why in one WARNING line.
   */
  public Future<Void> reload() {
    ServerSSLOptions options = settings.sslOptions();
    // force: the options name the same files as before, and equal options would be skipped.
    List<Future<Boolean>> updates = servers.stream().map(server -> server.apply(options, true)).toList();
    return Future.all(updates)
        .onSuccess(v -> LOG.log(System.Logger.Level.INFO, "TLS certificate reloaded from " + settings.certificate()))
        .onFailure(e -> LOG.log(System.Logger.Level.WARNING, "TLS certificate not reloaded from "
            + settings.certificate() + ", the previous one stays in use: " + e.getMessage()))
        .mapEmpty();
  }
}
