package io.sluice.verticles.engine.udprate.rate;

/**
 * What is remembered per key between requests (spec §4): when the stored rate was computed and
 * its value.
 *
 * @param tLastSeconds wall-clock time of the last stored evaluation, in seconds (fractional)
 * @param rate         events per period at that time
 */
public record RateState(double tLastSeconds, double rate) implements UdpState {
}
