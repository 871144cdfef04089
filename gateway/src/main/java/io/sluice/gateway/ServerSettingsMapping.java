package io.sluice.gateway;

import io.sluice.protocol.udp.rulefile.RuleFileException;
import io.sluice.gateway.config.SluiceConfig;
import io.sluice.protocol.binary.codec.PartialFrameBudget;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.rls.RlsConfigException;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.cluster.ClusterSettings;
import io.sluice.verticles.server.cluster.MemberCredentials;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.xds.XdsSettings;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.tls.TlsEngine;
import io.sluice.verticles.server.tls.TlsSettings;
import io.sluice.verticles.server.udp.UdpSettings;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Optional;

/**
 * The one place where the options become the server's settings: a method per section of the
 * option table, each reading only its own options.
 */
final class ServerSettingsMapping {

  private ServerSettingsMapping() {
  }

  /**
   * Reads the files the settings hold (the UDP rule table, Envoy's rate limit config) now: one that
   * cannot be used stops the start with a message for the operator.
   */
  static ServerSettings of(SluiceConfig config) throws Exception {
    return ServerSettings.defaults()
        .withValueSize(config.valueSize())
        .withShards(config.shards())
        // One front instance per event loop: shard i and front instance i then share loop i.
        .withFrontInstances(config.eventLoops())
        .withSweepIntervalMillis(config.sweepIntervalMillis())
        .withLimits(limits(config))
        .withTcp(new TcpSettings(config.tcpBind(), config.tcpPort()))
        .withHttp(http(config))
        .withUdp(udp(config))
        .withPolicies(config.policies())
        .withOperator(new OperatorSettings(config.internalMetrics(), config.effective()))
        .withCluster(cluster(config))
        .withRecordLimits(new StoreLimits(config.maxKeys(), config.maxMemory(), config.eviction()))
        .withRls(rls(config))
        .withDefences(defences(config))
        .withPersistence(persistence(config));
  }

  /** What one client connection may hold, on every front. */
  static ConnectionLimits limits(SluiceConfig config) {
    return ConnectionLimits.defaults()
        .withMaxFrame(config.maxFrame())
        .withMaxPendingBytes(config.maxPendingBytes())
        .withPartialFrames(new PartialFrameBudget(config.maxPartialBytes()))
        .withMaxSubscriptions(config.maxSubscriptions())
        .withHistory(new HistoryLimits(config.channelHistory(), config.channelHistoryTtl().toNanos()));
  }

  static HttpSettings http(SluiceConfig config) {
    return HttpSettings.defaults()
        .withListener(config.httpBind(), config.httpPort())
        .withAllowedOrigins(config.allowedOrigins())
        .withAuthToken(config.authToken())
        .withAllowedHosts(config.allowedHosts())
        .withWebSocket(config.webSocketAccess());
  }

  static UdpSettings udp(SluiceConfig config) throws RuleFileException {
    return UdpSettings.defaults()
        .withListener(config.udpBind(), config.udpPort())
        .withRules(UdpRules.load(config.rulesFile()))
        .withMaxStatsKeys(config.udpMaxStatsKeys());
  }

  /** A single node unless {@code --cluster}. */
  static ClusterSettings cluster(SluiceConfig config) {
    return config.cluster()
        ? new ClusterSettings(true, config.clusterHost(), config.clusterPort(), config.clusterMembers(), config.clusterName(),
            config.backups(), config.clusterConfig(), memberCredentials(config))
        : ClusterSettings.NONE;
  }

  /** The operator's certificates, a shared secret, or none (the loader refuses a mix). */
  static MemberCredentials memberCredentials(SluiceConfig config) {
    if (config.clusterTlsCertificate().isPresent()) {
      return new MemberCredentials.Certificates(config.clusterTlsCertificate().get(), config.clusterTlsKey().orElseThrow(),
          config.clusterTlsCa().orElseThrow());
    }
    return config.clusterSecretFile().<MemberCredentials>map(MemberCredentials.SharedSecret::new)
        .orElse(MemberCredentials.NONE);
  }

  /**
   * envoyproxy/ratelimit's config, read now: a refused one stops the start with its file, line and
   * field. Or an xDS server's, over TLS when the listeners have it (what Envoy Gateway mounts for
   * both); one source, not both.
   */
  static RlsSettings rls(SluiceConfig config) throws Exception {
    if (config.rlsXdsServer().isPresent()) {
      if (config.rlsConfig().isPresent()) {
        throw new Exception("--rls-config and --rls-xds-server both name where the rate limit config comes from: keep one");
      }
      InetSocketAddress server = config.rlsXdsServer().get();
      XdsSettings xds = XdsSettings.of(server.getHostString(), server.getPort()).withNodeId(config.rlsXdsNodeId())
          .withMergeDomains(config.rlsMergeDomains());
      Optional<TlsSettings> tls = defences(config).tls();
      return new RlsSettings(config.bind(), config.grpcPort(), RlsConfigSource.none(), config.rlsBehaviour())
          .withLocalCacheBytes(config.rlsLocalCacheBytes()).withHealthyWithConfig(config.rlsHealthyWithConfig())
          .withXds(tls.map(xds::withTls).orElse(xds));
    }
    RlsConfigSource source;
    if (config.rlsConfig().isEmpty()) {
      source = RlsConfigSource.none();
    } else {
      try {
        source = RlsConfigSource.load(config.rlsConfig().get(), config.rlsMergeDomains());
      } catch (RlsConfigException refused) {
        throw new Exception("rate limit config (--rls-config) refused: " + refused.getMessage(), refused);
      }
    }
    return new RlsSettings(config.bind(), config.grpcPort(), source, config.rlsBehaviour())
        .withLocalCacheBytes(config.rlsLocalCacheBytes()).withHealthyWithConfig(config.rlsHealthyWithConfig());
  }

  /** The listeners' defences against the network. */
  static Defences defences(SluiceConfig config) {
    Defences defences = Defences.defaults()
        .withMaxConnections(config.maxConnections())
        .withIdleTimeout(config.idleTimeout())
        .withHttpBounds(config.httpRequestTimeout(), config.httpMaxHeaderBytes(), config.httpMaxHeaders())
        .withProtectedMode(config.protectedMode())
        .withMetricsAuth(config.metricsAuth());
    if (config.authTokenFile().isPresent()) {
      defences = defences.withAuthTokenFile(config.authTokenFile().get());
    }
    if (config.tlsCertificate().isPresent() && config.tlsKey().isPresent()) {
      defences = defences.withTls(new TlsSettings(config.tlsCertificate().get(), config.tlsKey().get(),
          config.tlsClientCa(), TlsEngine.valueOf(config.tlsEngine().toUpperCase(Locale.ROOT))));
    }
    return defences;
  }

  /** Memory only unless {@code --data-dir}. */
  static PersistenceSettings persistence(SluiceConfig config) {
    PersistenceSettings persistence = PersistenceSettings.OFF
        .withFsync(config.fsync())
        .withSnapshotInterval(config.snapshotInterval())
        .withRecover(config.dataRecover())
        .withQueueBytes(config.persistenceQueueBytes());
    return config.dataDir().map(persistence::withDataDir).orElse(persistence);
  }
}
