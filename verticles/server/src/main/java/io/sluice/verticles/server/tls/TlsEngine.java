package io.sluice.verticles.server.tls;

import io.netty.handler.ssl.OpenSsl;
import io.vertx.core.net.SSLEngineOptions;

/** Which TLS implementation serves the listeners ({@code --tls-engine}). */
public enum TlsEngine {
  /** OpenSSL (BoringSSL through netty-tcnative) when this platform has it, else the JDK's. */
  AUTO,
  /** BoringSSL through netty-tcnative; refused at startup where it does not load. */
  OPENSSL,
  /** The JDK's own TLS. */
  JDK;

  /** The engine that will actually run. */
  public TlsEngine resolved() {
    if (this == AUTO) {
      return OpenSsl.isAvailable() ? OPENSSL : JDK;
    }
    if (this == OPENSSL && !OpenSsl.isAvailable()) {
      throw new IllegalStateException("--tls-engine openssl: OpenSSL does not load on this platform: "
          + OpenSsl.unavailabilityCause());
    }
    return this;
  }

  /** The engine's options, with session resumption bounded ({@link TlsSessions}). */
  public SSLEngineOptions options() {
    return resolved() == OPENSSL ? TlsSessions.openSsl() : TlsSessions.jdk();
  }
}
