package io.sluice.verticles;

import io.sluice.throttr.codec.ValueSize;
import io.sluice.strategy.policy.Policies;
import io.sluice.verticles.http.HttpSettings;
import io.sluice.verticles.front.ConnectionLimits;
import io.sluice.verticles.udp.UdpSettings;

/**
 * What the verticles need to know to serve.
 *
 * @param frontInstances      instances of each front verticle (one per event loop)
 * @param sweepIntervalMillis how often each shard reclaims a slice of expired records
 * @param policies            the rate-limit policies of the HTTP check API
 */
public record ServerSettings(
    String bind,
    int tcpPort,
    ValueSize valueSize,
    int shards,
    int frontInstances,
    long sweepIntervalMillis,
    ConnectionLimits limits,
    HttpSettings http,
    UdpSettings udp,
    Policies policies) {

  /** Settings without check-API policies. */
  public ServerSettings(String bind, int tcpPort, ValueSize valueSize, int shards, int frontInstances,
                        long sweepIntervalMillis, ConnectionLimits tcp, HttpSettings http, UdpSettings udp) {
    this(bind, tcpPort, valueSize, shards, frontInstances, sweepIntervalMillis, tcp, http, udp, Policies.none());
  }
}
