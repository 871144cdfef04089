package io.sluice.gateway;

import io.sluice.gateway.config.SluiceConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** The one start-up warning about who can reach this server. */
final class ExposureWarning {

  private ExposureWarning() {
  }

  /** A warning when the listeners are reachable beyond this host and nothing asks for a token. */
  static Optional<String> of(SluiceConfig config) {
    if (config.authToken().isPresent() || isLoopback(config.bind())) {
      return Optional.empty();
    }
    return Optional.of("listening on " + config.bind() + ", beyond loopback, without --auth-token: anyone who can reach"
        + " the HTTP port can read and change keys through the dashboard API and the WebSocket bridge (set --auth-token"
        + " or SLUICE_AUTH_TOKEN, or bind 127.0.0.1)");
  }

  /**
   * A warning when this node's cluster ports are reachable beyond this host and its members prove
   * nothing: anyone who reaches them with the cluster's name is a member.
   */
  static Optional<String> ofCluster(SluiceConfig config) {
    boolean credentials = config.clusterTlsCertificate().isPresent() || config.clusterSecretFile().isPresent();
    if (!config.cluster() || credentials || (config.clusterConfig().isEmpty() && isLoopback(config.clusterHost()))) {
      return Optional.empty();
    }
    return Optional.of("cluster ports on " + (config.clusterConfig().isPresent() ? "the addresses of "
        + config.clusterConfig().get() : config.clusterHost()) + ", beyond loopback, without credentials: anyone who can"
        + " reach them and knows the cluster's name is a member, reads and changes every key, and member traffic is"
        + " plain text (set --cluster-secret-file or --cluster-tls-cert, --cluster-tls-key and --cluster-tls-ca;"
        + " docs/cluster.md)");
  }

  private static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind.replace("[", "").replace("]", "")).isLoopbackAddress();
    } catch (UnknownHostException unresolved) {
      return false;
    }
  }
}
