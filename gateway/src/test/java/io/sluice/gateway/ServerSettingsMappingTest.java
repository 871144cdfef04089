package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.udprate.stats.KeyStatistics;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.cluster.ClusterSettings;
import io.sluice.verticles.server.tls.TlsEngine;
import io.sluice.verticles.server.tls.TlsSettings;
import io.sluice.verticles.server.xds.XdsSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each option section lands in its part of the server's settings, and only there. */
class ServerSettingsMappingTest {

  @Test
  void theOptionsDefaultsAreTheListenersOfTheOptionTable() throws Exception {
    ServerSettings settings = ServerSettingsMapping.of(config());

    assertThat(settings.valueSize()).isEqualTo(ValueSize.UINT16);
    assertThat(settings.sweepIntervalMillis()).isEqualTo(100);
    assertThat(settings.tcp().bind()).isEqualTo("127.0.0.1");
    assertThat(settings.tcp().port()).isEqualTo(9000);
    assertThat(settings.http().port()).isEqualTo(8080);
    assertThat(settings.http().authToken()).isEmpty();
    assertThat(settings.udp().port()).isEqualTo(9001);
    assertThat(settings.udp().maxStatsKeys()).isEqualTo(KeyStatistics.DEFAULT_MAX_KEYS);
    assertThat(settings.rls().port()).isEqualTo(8081);
    assertThat(settings.rls().config().path()).isNull();
    assertThat(settings.limits().maxFrame()).isEqualTo(8096);
    assertThat(settings.limits().maxPendingBytes()).isEqualTo(1 << 20);
    assertThat(settings.limits().maxPendingRequests()).isEqualTo(65_536);
    assertThat(settings.limits().partialFrames().limit()).isEqualTo(64L << 20);
    assertThat(settings.limits().maxSubscriptions()).isEqualTo(10_000);
    assertThat(settings.cluster()).isEqualTo(ClusterSettings.NONE);
    assertThat(settings.defences()).isEqualTo(Defences.defaults());
    assertThat(settings.persistence().enabled()).isFalse();
    assertThat(settings.recordLimits().eviction()).isEqualTo(Eviction.VOLATILE_TTL);
    assertThat(settings.operator().internalMetrics()).isFalse();
    assertThat(settings.operator().configuration()).isNotEmpty();
  }

  @Test
  void everySectionReadsItsOwnOptions() throws Exception {
    ServerSettings settings = ServerSettingsMapping.of(config(
        "--bind", "127.0.0.2", "--tcp-bind", "127.0.0.3", "--tcp-port", "9100", "--http-port", "9180",
        "--udp-port", "9101", "--grpc-port", "9181", "--value-size", "uint32", "--shards", "3", "--event-loops", "2",
        "--sweep-interval-ms", "250", "--max-frame", "4096", "--max-pending-bytes", "2048",
        "--max-partial-bytes", "4096", "--max-subscriptions", "7", "--auth-token", "s3cret",
        "--allowed-origins", "https://a.example", "--allowed-hosts", "a.example", "--udp-max-stats-keys", "5",
        "--max-keys", "1000", "--eviction", "reject", "--internal-metrics", "--max-connections", "9",
        "--idle-timeout", "30s", "--http-request-timeout", "2s", "--http-max-header-bytes", "4096",
        "--http-max-headers", "20", "--protected-mode", "no", "--metrics-auth", "yes",
        "--tls-cert", "cert.pem", "--tls-key", "key.pem", "--tls-engine", "jdk",
        "--data-dir", "data", "--fsync", "always", "--snapshot-interval", "1m", "--data-recover",
        "--persistence-queue-bytes", "2mb", "--cluster", "--cluster-port", "5801", "--cluster-members",
        "127.0.0.9:5701", "--cluster-name", "blue", "--backups", "2"));

    assertThat(settings.valueSize()).isEqualTo(ValueSize.UINT32);
    assertThat(settings.shards()).isEqualTo(3);
    assertThat(settings.frontInstances()).isEqualTo(2);
    assertThat(settings.sweepIntervalMillis()).isEqualTo(250);
    assertThat(settings.tcp().bind()).isEqualTo("127.0.0.3");
    assertThat(settings.tcp().port()).isEqualTo(9100);
    assertThat(settings.http().bind()).as("--http-bind falls back on --bind").isEqualTo("127.0.0.2");
    assertThat(settings.http().port()).isEqualTo(9180);
    assertThat(settings.http().authToken()).contains("s3cret");
    assertThat(settings.http().allowedOrigins()).containsExactly("https://a.example");
    assertThat(settings.http().allowedHosts()).containsExactly("a.example");
    assertThat(settings.udp().bind()).isEqualTo("127.0.0.2");
    assertThat(settings.udp().port()).isEqualTo(9101);
    assertThat(settings.udp().maxStatsKeys()).isEqualTo(5);
    assertThat(settings.rls().bind()).isEqualTo("127.0.0.2");
    assertThat(settings.rls().port()).isEqualTo(9181);
    assertThat(settings.limits().maxFrame()).isEqualTo(4096);
    assertThat(settings.limits().maxPendingBytes()).isEqualTo(2048);
    assertThat(settings.limits().partialFrames().limit()).isEqualTo(4096);
    assertThat(settings.limits().maxSubscriptions()).isEqualTo(7);
    assertThat(settings.recordLimits().maxRecords()).isEqualTo(1000);
    assertThat(settings.recordLimits().eviction()).isEqualTo(Eviction.REJECT);
    assertThat(settings.operator().internalMetrics()).isTrue();
    assertThat(settings.defences()).isEqualTo(Defences.defaults().withMaxConnections(9)
        .withIdleTimeout(Duration.ofSeconds(30)).withHttpBounds(Duration.ofSeconds(2), 4096, 20)
        .withProtectedMode(false).withMetricsAuth(true)
        .withTls(new TlsSettings(Path.of("cert.pem"), Path.of("key.pem"), Optional.empty(), TlsEngine.JDK)));
    assertThat(settings.persistence().dataDir()).contains(Path.of("data"));
    assertThat(settings.persistence().fsync()).isEqualTo(FsyncPolicy.ALWAYS);
    assertThat(settings.persistence().snapshotInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(settings.persistence().recover()).isTrue();
    assertThat(settings.persistence().queueBytes()).isEqualTo(2L << 20);
    assertThat(settings.cluster()).isEqualTo(new ClusterSettings(true, "127.0.0.2", 5801, List.of("127.0.0.9:5701"),
        "blue", 2, Optional.empty()));
  }

  @Test
  void healthyWithConfigReachesTheRateLimitServiceFromFilesOrXds() throws Exception {
    assertThat(ServerSettingsMapping.of(config()).rls().healthyWithConfig()).isFalse();
    assertThat(ServerSettingsMapping.of(config("--rls-healthy-with-config", "true")).rls().healthyWithConfig()).isTrue();
    assertThat(ServerSettingsMapping.of(config("--rls-healthy-with-config", "true", "--rls-xds-server", "[::1]:18000"))
        .rls().healthyWithConfig()).isTrue();
  }

  @Test
  void anXdsServerGivesTheRateLimitConfigOverTheListenersTls() throws Exception {
    assertThat(ServerSettingsMapping.of(config()).rls().xds()).as("files by default").isEmpty();

    XdsSettings plain = ServerSettingsMapping.of(config("--rls-xds-server", "[::1]:18000")).rls().xds().orElseThrow();
    assertThat(plain.address()).isEqualTo("[::1]:18000");
    assertThat(plain.nodeId()).isEqualTo("default");
    assertThat(plain.tls()).isEmpty();

    XdsSettings overTls = ServerSettingsMapping.of(config("--rls-xds-server", "envoy-gateway.envoy-gateway-system:18001",
        "--rls-xds-node-id", "envoy-ratelimit", "--tls-cert", "cert.pem", "--tls-key", "key.pem",
        "--tls-client-ca", "ca.pem", "--tls-engine", "jdk")).rls().xds().orElseThrow();
    assertThat(overTls.host()).isEqualTo("envoy-gateway.envoy-gateway-system");
    assertThat(overTls.port()).isEqualTo(18001);
    assertThat(overTls.nodeId()).isEqualTo("envoy-ratelimit");
    assertThat(overTls.tls()).contains(new TlsSettings(Path.of("cert.pem"), Path.of("key.pem"),
        Optional.of(Path.of("ca.pem")), TlsEngine.JDK));
  }

  @Test
  void filesAndAnXdsServerTogetherAreRefused() {
    assertThatThrownBy(() -> ServerSettingsMapping.of(config("--rls-xds-server", "127.0.0.1:18000",
        "--rls-config", "deploy/ratelimit")))
        .hasMessage("--rls-config and --rls-xds-server both name where the rate limit config comes from: keep one");
  }

  private static SluiceConfig config(String... args) throws Exception {
    return ((Invocation.Run) ConfigLoader.load(List.of(args), Map.of())).config();
  }
}
