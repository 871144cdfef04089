package io.sluice.protocol.udp.rules;

/**
 * A verdict given without running the rate algorithm (the original's {@code none} and
 * {@code default} keys): no rate state is created or read.
 *
 * @param over whether the reply says {@code Y}
 * @param rate the rate the reply reports
 */
public record FixedReply(boolean over, double rate) {

  /** {@code N} with rate 0, as the original's default rule. */
  public static final FixedReply ALLOW = new FixedReply(false, 0);
}
