package io.sluice.verticles.server;

import io.sluice.verticles.server.tls.TlsSettings;

import java.util.Optional;

/**
 * How the listeners defend themselves against the network (issue 17): encryption, and later the
 * bounds on connections and time. Built with {@link #defaults()} and the {@code with…} methods.
 *
 * @param tls TLS on every TCP listener (Throttr and HTTP/WebSocket); empty for plain text
 */
public record Defences(Optional<TlsSettings> tls) {

  /** Every default of the option table. */
  public static Defences defaults() {
    return new Defences(Optional.empty());
  }

  public Defences withTls(TlsSettings tls) {
    return new Defences(Optional.of(tls));
  }
}
