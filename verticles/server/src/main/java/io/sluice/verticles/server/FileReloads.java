package io.sluice.verticles.server;

import io.sluice.verticles.server.settings.Defences;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.reload.FileWatch;
import io.sluice.verticles.server.listener.TlsReloads;
import io.sluice.verticles.server.wsauth.TokenVerifier;
import io.sluice.verticles.server.wsauth.WebSocketAccessSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What files give a running server, read again when they change or on a reload: the TLS
 * certificate, key and client CA, the HTTP port's token file, and the WebSocket users' token keys.
 */
final class FileReloads {

  private final Vertx vertx;
  private final Optional<TlsReloads> tls;
  private final List<FileWatch> watches = new ArrayList<>();
  /** Null until the HTTP listener starts. */
  private BearerToken token;
  /** Null unless WebSocket users' tokens are checked. */
  private TokenVerifier users;

  /** TLS's files, watched from now on. */
  FileReloads(Vertx vertx, Defences defences, MeterRegistry meters) {
    this.vertx = vertx;
    this.tls = defences.tls().map(files -> new TlsReloads(vertx, files, meters));
    tls.ifPresent(reloads -> watches.add(FileWatch.start(vertx, reloads.settings().files(), reloads::reload)));
  }

  Optional<TlsReloads> tls() {
    return tls;
  }

  /**
   * The HTTP port's token: one for the whole port, so wrong tokens count per address whichever
   * feature they are tried on. Its file, if any, is watched from now on.
   */
  BearerToken token(Defences defences, HttpSettings http, Clock clock) throws IOException {
    BearerToken read = defences.authTokenFile().isPresent()
        ? BearerToken.fromFile(defences.authTokenFile().get(), clock)
        : new BearerToken(http.authToken(), clock);
    token = read;
    read.file().ifPresent(file -> watches.add(FileWatch.start(vertx, List.of(file), read::reload)));
    return read;
  }

  /**
   * The checker of WebSocket users' tokens, when key files are configured; they are watched from
   * now on.
   */
  Optional<TokenVerifier> webSocketUsers(WebSocketAccessSettings settings, Clock clock) throws IOException {
    if (!settings.jwt()) {
      return Optional.empty();
    }
    TokenVerifier read = TokenVerifier.load(vertx, settings, clock);
    users = read;
    watches.add(FileWatch.start(vertx, settings.keyFiles(), read::reload));
    return Optional.of(read);
  }

  /** Files that do not load leave what was in use, and say so in the log. */
  Future<Void> reload() {
    if (token != null) {
      token.reload();
    }
    if (users != null) {
      users.reload();
    }
    return tls.map(TlsReloads::reload).orElse(Future.succeededFuture());
  }

  void stopWatching() {
    watches.forEach(FileWatch::stop);
  }
}
