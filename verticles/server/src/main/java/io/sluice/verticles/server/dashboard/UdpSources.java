package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.UdpPeers;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The UDP endpoint's recent peers grouped by source address: a client that picks a new source port
 * for every request is one row, not one per port. Newest first (the one heard from last), then
 * busiest.
 */
final class UdpSources {

  /** One source address: how many ports it used lately, and their figures summed. */
  record Source(String ip, int ports, long firstSeenNanos, long lastSeenNanos, long requests, long readBytes,
                long writeBytes) {

    /** How the dashboard names a source: {@code udp:IP}. */
    String id() {
      return "udp:" + ip;
    }

    Source plus(UdpPeers.Peer peer) {
      return new Source(ip, ports + 1, Math.min(firstSeenNanos, peer.firstSeenNanos()),
          Math.max(lastSeenNanos, peer.lastSeenNanos()), requests + peer.requests(), readBytes + peer.readBytes(),
          writeBytes + peer.writeBytes());
    }

    JsonObject json() {
      return new JsonObject()
          .put("id", id())
          .put("protocol", "udp")
          .put("address", ip)
          .put("ports", ports)
          .put("connectedAtMillis", TimeUnit.NANOSECONDS.toMillis(firstSeenNanos))
          .put("lastSeenMillis", TimeUnit.NANOSECONDS.toMillis(lastSeenNanos))
          .put("readBytes", readBytes)
          .put("writeBytes", writeBytes)
          .put("publishedBytes", 0)
          .put("receivedBytes", 0)
          .put("requests", requests);
    }
  }

  private UdpSources() {
  }

  static List<Source> of(List<UdpPeers.Peer> peers) {
    Map<String, Source> byAddress = new LinkedHashMap<>();
    for (UdpPeers.Peer peer : peers) {
      byAddress.merge(peer.ip(), new Source(peer.ip(), 1, peer.firstSeenNanos(), peer.lastSeenNanos(), peer.requests(),
          peer.readBytes(), peer.writeBytes()), (known, added) -> known.plus(peer));
    }
    List<Source> sources = new ArrayList<>(byAddress.values());
    sources.sort(Comparator.comparingLong(Source::lastSeenNanos).reversed()
        .thenComparing(Comparator.comparingLong(Source::requests).reversed()).thenComparing(Source::ip));
    return sources;
  }
}
