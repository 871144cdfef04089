package io.sluice.gateway.cli;

import io.sluice.gateway.cli.CliServer.Run;
import io.sluice.verticles.server.kit.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `sluice cli` against a server with mutual TLS on its Throttr and HTTP ports, certificates from a
 * throwaway test CA: with the CA and a client certificate it works; without either it is refused.
 */
class CliTlsTest {

  @TempDir
  static Path folder;

  private static TestCertificates certificates;
  private static TestCertificates.Issued client;
  private static CliServer server;

  @BeforeAll
  static void startServer() throws Exception {
    certificates = new TestCertificates(folder, "cli");
    TestCertificates.Issued serverCertificate = certificates.server("server");
    client = certificates.client("client");
    server = new CliServer("--tls-cert", serverCertificate.certificateFile().toString(),
        "--tls-key", serverCertificate.keyFile().toString(), "--tls-client-ca", certificates.caFile().toString());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static Run withClientCertificate(String... command) {
    String[] args = new String[6 + command.length];
    String[] tls = {"--tls-ca", certificates.caFile().toString(), "--tls-cert", client.certificateFile().toString(),
        "--tls-key", client.keyFile().toString()};
    System.arraycopy(tls, 0, args, 0, tls.length);
    System.arraycopy(command, 0, args, tls.length, command.length);
    return server.cli(args);
  }

  @Test
  void throttrCommandsWorkOverMutualTls() {
    assertThat(withClientCertificate("insert", "tls-key", "3", "1m")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(withClientCertificate("query", "tls-key")).isEqualTo(new Run(0, "quota 3, ttl 60 s\n", ""));
  }

  @Test
  void theHttpCommandsUseTheSameFilesForHttps() {
    assertThat(server.httpUrl()).startsWith("https://");
    Run policies = withClientCertificate("policies");
    assertThat(policies.status()).as(policies.err()).isZero();
    assertThat(policies.out()).startsWith("check API policies:\n  none");
  }

  @Test
  void withoutTheClientCertificateOrTheCaTheConnectionIsRefused() {
    Run noCertificate = server.cli("--tls-ca", certificates.caFile().toString(), "info");
    assertThat(noCertificate.status()).isEqualTo(2);
    assertThat(noCertificate.err()).startsWith("sluice cli: info failed: ");
    Run untrusted = server.cli("--tls", "--tls-cert", client.certificateFile().toString(),
        "--tls-key", client.keyFile().toString(), "info");
    assertThat(untrusted.status()).isEqualTo(2);
    assertThat(untrusted.err()).startsWith("sluice cli: info failed: cannot connect to 127.0.0.1:" + server.tcpPort() + " over TLS: ");
    assertThat(server.cli("--tls-cert", client.certificateFile().toString(), "info").err())
        .isEqualTo("sluice cli: --tls-cert and --tls-key go together: --tls-key is missing\n");
  }
}
