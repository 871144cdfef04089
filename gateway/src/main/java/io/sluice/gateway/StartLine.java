package io.sluice.gateway;

import io.sluice.gateway.config.SluiceConfig;
import io.sluice.verticles.server.SluiceServer;

/**
 * The one line logged once every listener is up: each listener as a URL an operator can paste
 * (the dashboard's included), then the settings that shape the wire. Scripts wait for
 * "serving Throttr".
 */
final class StartLine {

  private StartLine() {
  }

  static String of(SluiceConfig config, SluiceServer server, String transport) {
    return of(config, server.tcpPort(), server.udpPort(), server.httpPort(), transport);
  }

  /** With TLS the HTTP port's URLs are https:// and wss://, so that what an operator pastes works. */
  static String of(SluiceConfig config, int tcpPort, int udpPort, int httpPort, String transport) {
    String host = urlHost(config.bind());
    boolean tls = tls(config);
    String http = (tls ? "https://" : "http://") + host + ":" + httpPort;
    String ws = (tls ? "wss://" : "ws://") + host + ":" + httpPort;
    return String.format("Sluice %s serving Throttr on tcp://%s:%d, UDP on udp://%s:%d, HTTP on %s"
            + " (dashboard %s/, WebSocket %s/ws, check API %s/v1, metrics %s/metrics, probes %s/health %s/ready);"
            + " value size %s, %d shards, %d event loops, max frame %d bytes, %s transport",
        Version.current(), host, tcpPort, host, udpPort, http,
        http, ws, http, http, http, http,
        config.valueSize().label(), config.shards(), config.eventLoops(), config.maxFrame(), transport);
  }

  /** How Envoy's rate limit service speaks on its port. */
  static String grpcTransport(SluiceConfig config) {
    return tls(config) ? "gRPC over TLS, HTTP/2 by ALPN" : "gRPC, h2c";
  }

  private static boolean tls(SluiceConfig config) {
    return config.tlsCertificate().isPresent();
  }

  /** IPv6 literals take brackets in a URL. */
  static String urlHost(String bind) {
    return bind.indexOf(':') >= 0 && !bind.startsWith("[") ? "[" + bind + "]" : bind;
  }
}
