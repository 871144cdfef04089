package io.sluice.verticles.engine.udprate.rate;

/**
 * What a UDP key remembers between requests: the protocol's decaying rate, or a sliding window's
 * counts when its rule chose one. A rule that changes algorithm finds the other kind and starts
 * the key afresh.
 */
public sealed interface UdpState permits RateState, WindowState {
}
