package io.sluice.verticles.engine.channel;

/**
 * How much of each channel's past its owner keeps ({@code --channel-history},
 * {@code --channel-history-ttl}).
 *
 * @param messages the latest messages kept per channel; 0 keeps none (history off)
 * @param ttlNanos how long a message is kept; 0 keeps it until newer ones push it out
 */
public record HistoryLimits(int messages, long ttlNanos) {

  /** No history: messages carry no offset and recovery is not offered. */
  public static final HistoryLimits OFF = new HistoryLimits(0, 0);

  public HistoryLimits {
    if (messages < 0 || ttlNanos < 0) {
      throw new IllegalArgumentException("channel history needs a size and a TTL of 0 or more");
    }
  }

  public boolean enabled() {
    return messages > 0;
  }
}
