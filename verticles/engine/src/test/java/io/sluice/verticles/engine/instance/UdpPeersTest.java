package io.sluice.verticles.engine.instance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** UDP peers are shown while they send, and the table stays bounded whatever the sources. */
class UdpPeersTest {

  private static final long SECOND = 1_000_000_000L;

  private final UdpPeers peers = new UdpPeers(3, 60 * SECOND);

  @Test
  void countsRequestsAndBytesPerPeer() {
    peers.received("10.0.0.1", 5000, 20, 0);
    peers.replied("10.0.0.1", 5000, 12);
    peers.received("10.0.0.1", 5000, 30, SECOND);
    peers.received("10.0.0.2", 5000, 5, 2 * SECOND);
    assertThat(peers.active(3 * SECOND)).containsExactly(
        new UdpPeers.Peer("10.0.0.1", 5000, 0, SECOND, 2, 50, 12),
        new UdpPeers.Peer("10.0.0.2", 5000, 2 * SECOND, 2 * SECOND, 1, 5, 0));
    assertThat(peers.active(3 * SECOND).get(0).id()).isEqualTo("udp:10.0.0.1:5000");
  }

  @Test
  void forgetsAPeerSilentForTheIdleTime() {
    peers.received("10.0.0.1", 5000, 1, 0);
    peers.received("10.0.0.2", 5000, 1, 30 * SECOND);
    assertThat(peers.active(60 * SECOND)).extracting(UdpPeers.Peer::ip).containsExactly("10.0.0.2");
  }

  @Test
  void keepsAtMostCapacityPeersDroppingTheLeastRecentlyHeard() {
    peers.received("a", 1, 1, 0);
    peers.received("b", 1, 1, 1);
    peers.received("c", 1, 1, 2);
    peers.received("a", 1, 1, 3);
    peers.received("d", 1, 1, 4);
    assertThat(peers.active(5)).extracting(UdpPeers.Peer::ip).containsExactly("a", "c", "d");
  }

  @Test
  void aReplyToAForgottenPeerIsIgnored() {
    peers.replied("nobody", 1, 10);
    assertThat(peers.active(0)).isEmpty();
  }
}
