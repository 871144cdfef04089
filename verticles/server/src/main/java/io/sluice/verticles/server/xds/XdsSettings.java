package io.sluice.verticles.server.xds;

import io.sluice.verticles.server.tls.TlsSettings;

import java.time.Duration;
import java.util.Optional;

/**
 * Where the rate limit config comes from when an xDS server pushes it ({@code --rls-xds-server}).
 *
 * @param host           the xDS (ADS) server
 * @param port           its port
 * @param nodeId         the node id Sluice names itself by; the server keys its snapshots by it
 * @param tls            TLS to the server (the listeners' {@code --tls-cert}, {@code --tls-key} as
 *                       the client's certificate, {@code --tls-client-ca} as the server's CA), or
 *                       empty for h2c
 * @param initialBackoff the wait before the first reconnection; it doubles at each failure
 * @param maxBackoff     the longest wait between reconnections
 * @param mergeDomains   whether several resources may define one domain ({@code --rls-merge-domains})
 */
public record XdsSettings(String host, int port, String nodeId, Optional<TlsSettings> tls, Duration initialBackoff,
                          Duration maxBackoff, boolean mergeDomains) {

  /** envoyproxy/ratelimit's CONFIG_GRPC_XDS_NODE_ID default. */
  public static final String DEFAULT_NODE_ID = "default";

  /** A server at {@code host:port}, node id {@code default}, h2c, reconnecting after 1 s to 30 s. */
  public static XdsSettings of(String host, int port) {
    return new XdsSettings(host, port, DEFAULT_NODE_ID, Optional.empty(), Duration.ofSeconds(1), Duration.ofSeconds(30),
        false);
  }

  public XdsSettings withNodeId(String nodeId) {
    return new XdsSettings(host, port, nodeId, tls, initialBackoff, maxBackoff, mergeDomains);
  }

  public XdsSettings withTls(TlsSettings tls) {
    return new XdsSettings(host, port, nodeId, Optional.of(tls), initialBackoff, maxBackoff, mergeDomains);
  }

  public XdsSettings withBackoff(Duration initial, Duration max) {
    return new XdsSettings(host, port, nodeId, tls, initial, max, mergeDomains);
  }

  public XdsSettings withMergeDomains(boolean merge) {
    return new XdsSettings(host, port, nodeId, tls, initialBackoff, maxBackoff, merge);
  }

  /** {@code host:port}, for log lines. */
  public String address() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
