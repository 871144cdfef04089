package io.sluice.gateway.cli;

import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The client's TLS: whether the Throttr connection uses it, and the PEM files for both ports (the
 * server's TLS covers its Throttr and HTTP ports with the same certificate and client CA). Without
 * a CA file the JVM's trusted CAs apply; the server's certificate must name the host connected to.
 */
record CliTls(boolean enabled, Optional<Path> ca, Optional<Path> certificate, Optional<Path> key) {

  /** What {@code ThrottrClientOptions.setTls} takes; empty for plain TCP. */
  Optional<ClientSSLOptions> forThrottr() {
    if (!enabled) {
      return Optional.empty();
    }
    ClientSSLOptions options = new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS");
    ca.ifPresent(file -> options.setTrustOptions(trust(file)));
    certificate.ifPresent(file -> options.setKeyCertOptions(keyCertificate(file)));
    return Optional.of(options);
  }

  /** Options for the HTTP port at a URL of this scheme: TLS with these files for https. */
  HttpClientOptions forHttp(String scheme) {
    HttpClientOptions options = new HttpClientOptions();
    if (scheme.equals("https")) {
      options.setSsl(true).setVerifyHost(true);
      ca.ifPresent(file -> options.setTrustOptions(trust(file)));
      certificate.ifPresent(file -> options.setKeyCertOptions(keyCertificate(file)));
    }
    return options;
  }

  private static PemTrustOptions trust(Path file) {
    return new PemTrustOptions().addCertPath(file.toString());
  }

  private PemKeyCertOptions keyCertificate(Path file) {
    return new PemKeyCertOptions().setCertPath(file.toString()).setKeyPath(key.orElseThrow().toString());
  }
}
