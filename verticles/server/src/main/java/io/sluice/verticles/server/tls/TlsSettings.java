package io.sluice.verticles.server.tls;

import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.ServerSSLOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * TLS for a listener, from PEM files: the one place that turns {@code --tls-cert}, {@code --tls-key}
 * and {@code --tls-client-ca} into Vert.x options. Every TCP listener (the Throttr port, the HTTP
 * port, and any {@link io.vertx.core.http.HttpServer} such as a gRPC one, since
 * {@link io.vertx.core.http.HttpServerOptions} is a {@link NetServerOptions}) is configured by
 * {@link #configure}, and its certificates replaced by {@link io.sluice.verticles.server.listener.TlsReloads}.
 *
 * @param certificate the server's certificate chain (PEM), leaf first
 * @param key         its private key (PEM, PKCS#8 or PKCS#1)
 * @param clientCa    when present, clients must present a certificate signed by one of these CAs (mTLS)
 */
public record TlsSettings(Path certificate, Path key, Optional<Path> clientCa, TlsEngine engine) {

  /** Older versions have known weaknesses; every maintained client speaks one of these. */
  public static final Set<String> PROTOCOLS = Set.of("TLSv1.2", "TLSv1.3");

  /** A client that has not finished its handshake by then is closed. */
  static final long HANDSHAKE_TIMEOUT_SECONDS = 10;

  /** The files to watch for a reload. */
  public List<Path> files() {
    return clientCa.map(ca -> List.of(certificate, key, ca)).orElse(List.of(certificate, key));
  }

  /**
   * Turns TLS on in {@code options}, with the certificate files as they are now: read once and
   * checked ({@link KeyPairCheck#read}), as a reload reads them.
   *
   * @throws IllegalArgumentException naming both files, when they do not load or do not match
   */
  public <T extends NetServerOptions> T configure(T options) {
    ServerSSLOptions ssl = sslOptions(KeyPairCheck.read(certificate, key));
    options.setSsl(true)
        .setSslEngineOptions(engine.options())
        .setKeyCertOptions(ssl.getKeyCertOptions())
        .setEnabledSecureTransportProtocols(ssl.getEnabledSecureTransportProtocols())
        .setClientAuth(ssl.getClientAuth())
        .setSslHandshakeTimeout(ssl.getSslHandshakeTimeout())
        .setSslHandshakeTimeoutUnit(ssl.getSslHandshakeTimeoutUnit());
    if (ssl.getTrustOptions() != null) {
      options.setTrustOptions(ssl.getTrustOptions());
    }
    return options;
  }

  /**
   * TLS for a connection Sluice makes to a server (the xDS server): the certificate and key are
   * the client's certificate, the client CA (when given) the CA the server's certificate must be
   * signed by, else the JVM's trusted CAs; the server's name is verified. The files are read now.
   */
  public HttpClientOptions configureClient(HttpClientOptions options) {
    options.setSsl(true)
        .setUseAlpn(true)
        .setSslEngineOptions(engine.options())
        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(certificate.toString()).setKeyPath(key.toString()))
        .setEnabledSecureTransportProtocols(PROTOCOLS)
        .setVerifyHost(true)
        .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS)
        .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
    clientCa.ifPresent(ca -> options.setTrustOptions(new PemTrustOptions().addCertPath(ca.toString())));
    return options;
  }

  /** TLS with {@code keyCert} as the certificate and key, and the client CA file read when the server takes it. */
  public ServerSSLOptions sslOptions(PemKeyCertOptions keyCert) {
    ServerSSLOptions ssl = new ServerSSLOptions()
        .setKeyCertOptions(keyCert)
        .setEnabledSecureTransportProtocols(PROTOCOLS)
        .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS)
        .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS)
        .setClientAuth(clientCa.isPresent() ? ClientAuth.REQUIRED : ClientAuth.NONE);
    clientCa.ifPresent(ca -> ssl.setTrustOptions(new PemTrustOptions().addCertPath(ca.toString())));
    return ssl;
  }
}
