package io.sluice.gateway.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static io.sluice.gateway.config.Loading.failure;
import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The options of the listeners' defences (issue 17): how they read, and the rules between them. */
class DefenceOptionsTest {

  @Test
  void clusterCredentialsAreThreeFilesOrASecret() throws Exception {
    SluiceConfig config = run("--cluster", "--cluster-tls-cert", "m.pem", "--cluster-tls-key", "m-key.pem",
        "--cluster-tls-ca", "ca.pem");
    assertThat(config.clusterTlsCertificate()).contains(Path.of("m.pem"));
    assertThat(config.clusterTlsKey()).contains(Path.of("m-key.pem"));
    assertThat(config.clusterTlsCa()).contains(Path.of("ca.pem"));
    assertThat(run("--cluster-secret-file", "s").clusterSecretFile()).contains(Path.of("s"));
    assertThat(failure("--cluster-tls-cert", "m.pem").problems()).containsExactly(
        "--cluster-tls-cert, --cluster-tls-key and --cluster-tls-ca go together: --cluster-tls-key and --cluster-tls-ca are missing");
    assertThat(failure("--cluster-tls-cert", "m.pem", "--cluster-tls-key", "k", "--cluster-tls-ca", "c",
        "--cluster-secret-file", "s").problems()).containsExactly(
        "--cluster-secret-file and --cluster-tls-cert both admit members: keep one");
  }

  @Test
  void tlsNeedsBothTheCertificateAndTheKey() throws Exception {
    SluiceConfig config = run("--tls-cert", "server.pem", "--tls-key", "server-key.pem", "--tls-client-ca", "ca.pem",
        "--tls-engine", "JDK");
    assertThat(config.tlsCertificate()).contains(Path.of("server.pem"));
    assertThat(config.tlsKey()).contains(Path.of("server-key.pem"));
    assertThat(config.tlsClientCa()).contains(Path.of("ca.pem"));
    assertThat(config.tlsEngine()).isEqualTo("jdk");

    assertThat(failure("--tls-cert", "server.pem").problems())
        .containsExactly("--tls-cert and --tls-key go together: --tls-key is missing");
    assertThat(failure("--tls-client-ca", "ca.pem").problems())
        .containsExactly("--tls-client-ca needs TLS: set --tls-cert and --tls-key too");
    assertThat(failure("--tls-engine", "gnutls").problems()).singleElement().asString()
        .contains("expected auto|openssl|jdk");
  }

  @Test
  void durationsTakeAUnit() {
    ValueType<Duration> type = ValueType.duration(Duration.ofHours(1), true);
    assertThat(type.parse("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(type.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(type.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(type.parse("off")).isEqualTo(Duration.ZERO);
    assertThat(type.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(type.format(Duration.ZERO)).isEqualTo("off");
    for (String bad : new String[] {"10", "2h", "-1s", "1.5s", "s", "99999999999s"}) {
      assertThatThrownBy(() -> type.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> ValueType.duration(Duration.ofHours(1), false).parse("off"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void connectionAndTimeBoundsHaveTheirDefaultsAndRead() throws Exception {
    SluiceConfig defaults = run();
    assertThat(defaults.maxConnections()).isEqualTo(10_000);
    assertThat(defaults.idleTimeout()).isEqualTo(Duration.ZERO);
    assertThat(defaults.httpRequestTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.httpMaxHeaderBytes()).isEqualTo(8192);
    assertThat(defaults.httpMaxHeaders()).isEqualTo(100);

    SluiceConfig set = run("--max-connections", "50", "--idle-timeout", "90s", "--http-request-timeout", "2s",
        "--http-max-header-bytes", "4096", "--http-max-headers", "20");
    assertThat(set.maxConnections()).isEqualTo(50);
    assertThat(set.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(set.httpRequestTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(set.httpMaxHeaderBytes()).isEqualTo(4096);
    assertThat(set.httpMaxHeaders()).isEqualTo(20);
    assertThat(failure("--http-request-timeout", "off").problems()).hasSize(1);
  }

  @Test
  void protectedModeIsOnUnlessSaidNo() throws Exception {
    assertThat(run().protectedMode()).isTrue();
    assertThat(run("--protected-mode", "no").protectedMode()).isFalse();
    assertThat(failure("--protected-mode", "maybe").problems()).singleElement().asString().contains("yes|no");
  }

  @Test
  void theTokenComesFromAValueOrAFileNotBoth() throws Exception {
    assertThat(run("--auth-token-file", "token.txt").authTokenFile()).contains(Path.of("token.txt"));
    assertThat(failure("--auth-token", "abc", "--auth-token-file", "token.txt").problems())
        .containsExactly("--auth-token and --auth-token-file both give the token: keep one");
  }

  @Test
  void eachListenerBindsWhereItsOwnOptionOrBindSays() throws Exception {
    SluiceConfig config = run("--bind", "0.0.0.0", "--tcp-bind", "10.0.0.1", "--udp-bind", "::1");
    assertThat(config.tcpBind()).isEqualTo("10.0.0.1");
    assertThat(config.httpBind()).isEqualTo("0.0.0.0");
    assertThat(config.udpBind()).isEqualTo("::1");
    assertThat(run().httpBind()).isEqualTo("127.0.0.1");
    assertThat(run("--metrics-auth", "yes").metricsAuth()).isTrue();
  }
}
