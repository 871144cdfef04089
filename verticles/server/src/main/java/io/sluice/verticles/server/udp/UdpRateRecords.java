package io.sluice.verticles.server.udp;

import io.sluice.verticles.engine.udprate.rate.StoredState;
import io.sluice.verticles.engine.udprate.rate.UdpState;

import java.nio.charset.StandardCharsets;

/** The UDP endpoint's state records ({@code udp:<key>}) as readers outside the endpoint see them. */
public final class UdpRateRecords {

  /** The prefix of every UDP state record's key. */
  public static final String PREFIX = new String(ShardRateStore.NAMESPACE, StandardCharsets.US_ASCII);

  private UdpRateRecords() {
  }

  /**
   * The stored rate and when it was computed, or a sliding window rule's windows.
   *
   * @throws IllegalStateException when the value is not a UDP state
   */
  public static UdpState decode(byte[] value) {
    return StoredState.decode(value);
  }
}
