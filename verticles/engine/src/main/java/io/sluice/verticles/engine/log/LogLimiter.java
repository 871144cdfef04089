package io.sluice.verticles.engine.log;

import io.sluice.verticles.engine.time.Clock;

import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one log line per interval for one kind of event that clients can cause at will (a
 * refused connection, a plain-text client on a TLS port, a closed connection's reason): a flood of
 * them must not become a flood of log lines. The line that is let through says how many were
 * left out since the previous one. Safe to share between event loops.
 */
public final class LogLimiter {

  private final Clock clock;
  private final long intervalNanos;
  private final AtomicLong nextAllowedNanos = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong suppressed = new AtomicLong();

  public LogLimiter(Clock clock, long intervalNanos) {
    this.clock = clock;
    this.intervalNanos = intervalNanos;
  }

  /**
   * Whether the event's line may be logged now; if so, the suffix to append (empty, or
   * {@code " (and N more like it in the last S s)"}), else null and the event is counted.
   */
  public String admit() {
    long now = clock.epochNanos();
    long next = nextAllowedNanos.get();
    if (now >= next && nextAllowedNanos.compareAndSet(next, now + intervalNanos)) {
      long left = suppressed.getAndSet(0);
      return left == 0 ? "" : " (and " + left + " more like it in the last " + intervalNanos / 1_000_000_000L + " s)";
    }
    suppressed.incrementAndGet();
    return null;
  }

  /** Logs {@code line} at {@code level} when {@link #admit()} lets it through. */
  public void log(System.Logger logger, System.Logger.Level level, String line) {
    String suffix = admit();
    if (suffix != null) {
      logger.log(level, line + suffix);
    }
  }
}
