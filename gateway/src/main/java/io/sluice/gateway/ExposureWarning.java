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

  private static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind.replace("[", "").replace("]", "")).isLoopbackAddress();
    } catch (UnknownHostException unresolved) {
      return false;
    }
  }
}
