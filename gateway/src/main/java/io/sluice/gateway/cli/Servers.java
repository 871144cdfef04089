package io.sluice.gateway.cli;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.ValueSize;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The server's two ports as one run of {@code sluice cli} reaches them, each connected on first
 * use: a command of the check API needs no Throttr port, and a Throttr command no HTTP port. A
 * Throttr connection that failed is tried again by the next command (at the prompt).
 */
final class Servers {

  private final Vertx vertx;
  private final CliSettings settings;
  /** Set on the event loop when connected, read by the command's thread after it awaited that. */
  private volatile ThrottrClient throttr;
  private HttpApi http;

  Servers(Vertx vertx, CliSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
  }

  /** The Throttr connection; a failure says where it could not connect. */
  Future<ThrottrClient> throttr() {
    if (throttr != null) {
      return Future.succeededFuture(throttr);
    }
    ThrottrClientOptions options = new ThrottrClientOptions().setHost(settings.host()).setPort(settings.port())
        .setValueSize(settings.valueSize());
    settings.tls().forThrottr().ifPresent(options::setTls);
    return ThrottrClient.connect(vertx, options)
        .onSuccess(connected -> throttr = connected)
        .recover(failed -> Future.failedFuture(new IllegalStateException("cannot connect to " + settings.host() + ":"
            + settings.port() + (settings.tls().enabled() ? " over TLS" : "") + ": " + Cli.message(failed))));
  }

  HttpApi http() {
    if (http == null) {
      http = new HttpApi(vertx, settings.http(), settings.token(), settings.tls());
    }
    return http;
  }

  /** N, as the server's --value-size: what a quota or TTL may reach. */
  ValueSize valueSize() {
    return settings.valueSize();
  }
}
