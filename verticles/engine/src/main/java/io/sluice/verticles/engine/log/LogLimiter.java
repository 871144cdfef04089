package io.sluice.verticles.engine.log;

import io.sluice.verticles.engine.time.Clock;

/**
 * At most a few log lines per interval for one kind of event that clients can cause at will (a
 * refused connection, a plain-text client on a TLS port, a connection closed for bad input): a
 * flood of them must not become a flood of log lines. The first line let through after some were
 * left out says how many. Safe to share between event loops.
 */
public final class LogLimiter {

  private final Clock clock;
  private final long intervalNanos;
  private final int linesPerInterval;
  private boolean started;
  private long windowStart;
  private int logged;
  private long leftOut;

  /** One line per interval. */
  public LogLimiter(Clock clock, long intervalNanos) {
    this(clock, intervalNanos, 1);
  }

  public LogLimiter(Clock clock, long intervalNanos, int linesPerInterval) {
    this.clock = clock;
    this.intervalNanos = intervalNanos;
    this.linesPerInterval = linesPerInterval;
  }

  /**
   * Whether the event's line may be logged now; if so, the suffix to append (empty, or
   * {@code " (N more like it were not logged)"}), else null and the event is counted.
   */
  public synchronized String admit() {
    long now = clock.epochNanos();
    if (!started || now - windowStart >= intervalNanos) {
      started = true;
      windowStart = now;
      logged = 0;
    }
    if (logged == linesPerInterval) {
      leftOut++;
      return null;
    }
    logged++;
    long left = leftOut;
    leftOut = 0;
    return left == 0 ? "" : " (" + left + " more like it were not logged)";
  }

  /** Logs {@code line} at {@code level} when {@link #admit()} lets it through. */
  public void log(System.Logger logger, System.Logger.Level level, String line) {
    String suffix = admit();
    if (suffix != null) {
      logger.log(level, line + suffix);
    }
  }
}
