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
    String host = urlHost(config.bind());
    String http = "http://" + host + ":" + server.httpPort();
    return String.format("Sluice %s serving Throttr on tcp://%s:%d, UDP on udp://%s:%d, HTTP on %s"
            + " (dashboard %s/, WebSocket ws://%s:%d/ws, check API %s/v1, metrics %s/metrics, probes %s/health %s/ready);"
            + " value size %s, %d shards, %d event loops, max frame %d bytes, %s transport",
        Version.current(), host, server.tcpPort(), host, server.udpPort(), http,
        http, host, server.httpPort(), http, http, http, http,
        config.valueSize().label(), config.shards(), config.eventLoops(), config.maxFrame(), transport);
  }

  /** IPv6 literals take brackets in a URL. */
  static String urlHost(String bind) {
    return bind.indexOf(':') >= 0 && !bind.startsWith("[") ? "[" + bind + "]" : bind;
  }
}
