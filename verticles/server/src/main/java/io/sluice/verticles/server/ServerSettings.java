package io.sluice.verticles.server;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.cluster.ClusterSettings;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.server.udp.UdpSettings;

/**
 * What the verticles need to know to serve; each listener's settings hold its own address and port.
 * Built with {@link #defaults()} and the {@code with…} methods.
 *
 * @param frontInstances      instances of each front verticle (one per event loop)
 * @param sweepIntervalMillis how often each shard reclaims a slice of expired records
 * @param limits              what one client connection may hold, on TCP and on the WebSocket bridge
 * @param policies            the rate-limit policies of the HTTP check API
 * @param operator            internal metrics and the effective configuration the admin API shows
 * @param cluster             how this node joins a cluster, {@link ClusterSettings#NONE} for a single node
 * @param recordLimits        the records all shards together may hold, and what a full shard does
 * @param rls                 Envoy's rate limit service: its gRPC listener and config
 * @param defences            TLS and the listeners' other defences against the network
 * @param persistence         where and how the shards persist; {@link PersistenceSettings#OFF} for memory only
 */
public record ServerSettings(
    ValueSize valueSize,
    int shards,
    int frontInstances,
    long sweepIntervalMillis,
    ConnectionLimits limits,
    TcpSettings tcp,
    HttpSettings http,
    UdpSettings udp,
    Policies policies,
    OperatorSettings operator,
    ClusterSettings cluster,
    StoreLimits recordLimits,
    RlsSettings rls,
    Defences defences,
    PersistenceSettings persistence) {

  /** What the option table sweeps by default. */
  public static final long DEFAULT_SWEEP_INTERVAL_MILLIS = 100;

  /**
   * An embedded single node: one shard and one instance of each front, the Throttr, HTTP and UDP
   * listeners on loopback's ephemeral ports, no gRPC listener, no check-API policy, no record
   * limit, memory only, and the option table's defaults for the rest.
   */
  public static ServerSettings defaults() {
    return new ServerSettings(ValueSize.UINT16, 1, 1, DEFAULT_SWEEP_INTERVAL_MILLIS, ConnectionLimits.defaults(),
        TcpSettings.defaults(), HttpSettings.defaults(), UdpSettings.defaults(), Policies.none(),
        OperatorSettings.defaults(), ClusterSettings.NONE, StoreLimits.unlimited(), RlsSettings.disabled(),
        Defences.defaults(), PersistenceSettings.OFF);
  }

  public ServerSettings withValueSize(ValueSize valueSize) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withShards(int shards) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withFrontInstances(int frontInstances) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withSweepIntervalMillis(long sweepIntervalMillis) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withLimits(ConnectionLimits limits) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withTcp(TcpSettings tcp) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withHttp(HttpSettings http) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withUdp(UdpSettings udp) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withPolicies(Policies policies) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withOperator(OperatorSettings operator) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withCluster(ClusterSettings cluster) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withRecordLimits(StoreLimits recordLimits) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withRls(RlsSettings rls) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withDefences(Defences defences) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }

  public ServerSettings withPersistence(PersistenceSettings persistence) {
    return new ServerSettings(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        operator, cluster, recordLimits, rls, defences, persistence);
  }
}
