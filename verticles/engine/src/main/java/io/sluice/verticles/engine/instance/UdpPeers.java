package io.sluice.verticles.engine.instance;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The UDP endpoint's recent peers, for the dashboard: UDP has no connections, so a peer (address and
 * port) is shown while it keeps sending. Bounded twice so a flood of spoofed sources cannot grow it:
 * at most {@code capacity} peers (the one heard from least recently goes first), and a peer silent
 * for {@code idleNanos} is forgotten. The UDP verticle writes, the dashboard reads: synchronized.
 */
public final class UdpPeers {

  /** One peer's figures as of a moment. */
  public record Peer(String ip, int port, long firstSeenNanos, long lastSeenNanos, long requests, long readBytes,
                     long writeBytes) {

    /** How the dashboard names a peer: {@code udp:IP:PORT}. */
    public String id() {
      return "udp:" + ip + ":" + port;
    }
  }

  private static final class Figures {
    final long firstSeenNanos;
    long lastSeenNanos;
    long requests;
    long readBytes;
    long writeBytes;

    Figures(long firstSeenNanos) {
      this.firstSeenNanos = firstSeenNanos;
    }
  }

  private final int capacity;
  private final long idleNanos;
  /** Access order: the eldest entry is the peer heard from least recently. */
  private final LinkedHashMap<String, Figures> peers;

  public UdpPeers(int capacity, long idleNanos) {
    this.capacity = capacity;
    this.idleNanos = idleNanos;
    this.peers = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Figures> eldest) {
        return size() > UdpPeers.this.capacity;
      }
    };
  }

  /** A datagram of {@code bytes} came from the peer. */
  public synchronized void received(String ip, int port, int bytes, long nowNanos) {
    Figures figures = peers.computeIfAbsent(key(ip, port), k -> new Figures(nowNanos));
    figures.lastSeenNanos = nowNanos;
    figures.requests++;
    figures.readBytes += bytes;
  }

  /** A reply of {@code bytes} went to the peer. */
  public synchronized void replied(String ip, int port, int bytes) {
    Figures figures = peers.get(key(ip, port));
    if (figures != null) {
      figures.writeBytes += bytes;
    }
  }

  /** The peers heard from within the idle time, first heard first. */
  public synchronized List<Peer> active(long nowNanos) {
    List<Peer> active = new ArrayList<>();
    for (Iterator<Map.Entry<String, Figures>> it = peers.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Figures> entry = it.next();
      Figures figures = entry.getValue();
      if (nowNanos - figures.lastSeenNanos >= idleNanos) {
        it.remove();
        continue;
      }
      int colon = entry.getKey().lastIndexOf(':');
      active.add(new Peer(entry.getKey().substring(0, colon), Integer.parseInt(entry.getKey().substring(colon + 1)),
          figures.firstSeenNanos, figures.lastSeenNanos, figures.requests, figures.readBytes, figures.writeBytes));
    }
    active.sort((a, b) -> Long.compare(a.firstSeenNanos(), b.firstSeenNanos()));
    return active;
  }

  private static String key(String ip, int port) {
    return ip + ':' + port;
  }
}
