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

  /** Settings of a single node with the defaults: no internal metrics, no configuration to show, no record limit. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        OperatorSettings.defaults(), ClusterSettings.NONE, StoreLimits.unlimited(), RlsSettings.disabled(), Defences.defaults(), PersistenceSettings.OFF);
  }

  /** Settings of a single node with no record limit. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies,
                        OperatorSettings operator) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies, operator,
        ClusterSettings.NONE, StoreLimits.unlimited(), RlsSettings.disabled(), Defences.defaults(), PersistenceSettings.OFF);
  }

  /** Settings of a cluster node with the operator defaults and no record limit. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies,
                        ClusterSettings cluster) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        OperatorSettings.defaults(), cluster, StoreLimits.unlimited(), RlsSettings.disabled(), Defences.defaults(), PersistenceSettings.OFF);
  }

  /** Settings of a single node with the operator defaults and a record limit. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies,
                        StoreLimits recordLimits) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        OperatorSettings.defaults(), ClusterSettings.NONE, recordLimits, RlsSettings.disabled(), Defences.defaults(), PersistenceSettings.OFF);
  }

  /** Settings of a single node with Envoy's rate limit service, and the other defaults. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies,
                        RlsSettings rls) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        OperatorSettings.defaults(), ClusterSettings.NONE, StoreLimits.unlimited(), rls, Defences.defaults(), PersistenceSettings.OFF);
  }

  /** Settings of a single node with these defences, and the other defaults. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies,
                        Defences defences) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        OperatorSettings.defaults(), ClusterSettings.NONE, StoreLimits.unlimited(), RlsSettings.disabled(), defences, PersistenceSettings.OFF);
  }

  /** Settings without check-API policies. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, Policies.none());
  }

  /** Settings of a single node with persistence, and the other defaults. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies,
                        PersistenceSettings persistence) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        OperatorSettings.defaults(), ClusterSettings.NONE, StoreLimits.unlimited(), RlsSettings.disabled(),
        Defences.defaults(), persistence);
  }
}
