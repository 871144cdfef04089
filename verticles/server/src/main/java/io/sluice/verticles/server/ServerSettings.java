package io.sluice.verticles.server;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.verticles.server.front.ConnectionLimits;
import io.sluice.verticles.server.tcp.TcpSettings;
import io.sluice.verticles.server.udp.UdpSettings;

/**
 * What the verticles need to know to serve; each listener's settings hold its own address and port.
 *
 * @param frontInstances      instances of each front verticle (one per event loop)
 * @param sweepIntervalMillis how often each shard reclaims a slice of expired records
 * @param limits              what one client connection may hold, on TCP and on the WebSocket bridge
 * @param policies            the rate-limit policies of the HTTP check API
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
    PersistenceSettings persistence) {

  /** Settings without persistence. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp, Policies policies) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, policies,
        PersistenceSettings.OFF);
  }

  /** Settings without check-API policies. */
  public ServerSettings(ValueSize valueSize, int shards, int frontInstances, long sweepIntervalMillis,
                        ConnectionLimits limits, TcpSettings tcp, HttpSettings http, UdpSettings udp) {
    this(valueSize, shards, frontInstances, sweepIntervalMillis, limits, tcp, http, udp, Policies.none());
  }
}
