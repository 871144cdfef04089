package io.sluice.verticles.engine.instance;

import io.sluice.verticles.engine.channel.ChannelDirectory;
import io.sluice.verticles.engine.channel.PresenceRegistry;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.engine.time.MinuteWindow;
import io.sluice.protocol.binary.codec.ValueSize;

/** What every front of one Sluice process shares: its identity, clock and instance-wide figures. */
public record Instance(
    String version,
    ValueSize valueSize,
    int shards,
    Clock clock,
    long startedAtNanos,
    RequestCounters counters,
    ConnectionRegistry connections,
    ChannelDirectory channels,
    UdpPeers udpPeers,
    PresenceRegistry presence) {

  /** UDP peers shown: at most this many, each until silent for {@link #UDP_PEER_IDLE_NANOS}. */
  public static final int UDP_PEERS_SHOWN = 1000;
  public static final long UDP_PEER_IDLE_NANOS = 5L * 60 * 1_000_000_000L;

  /** The one-minute metrics window (counted from start) the clock is in now. */
  public int currentWindow() {
    return MinuteWindow.index(startedAtNanos, clock.epochNanos());
  }

  public static Instance start(String version, ValueSize valueSize, int shards, Clock clock) {
    return new Instance(version, valueSize, shards, clock, clock.epochNanos(), new RequestCounters(),
        new ConnectionRegistry(), new ChannelDirectory(), new UdpPeers(UDP_PEERS_SHOWN, UDP_PEER_IDLE_NANOS),
        new PresenceRegistry());
  }
}
