package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.encoding.StateFormat;
import io.sluice.verticles.strategies.encoding.StateFormat.Fields;
import java.time.Duration;

/**
 * Sliding window, the weighted two-window counter Cloudflare and Kong describe (a Sluice
 * extension): time is cut into windows of the quota's length aligned to the Unix epoch, each
 * counting its admitted requests, and the rate at {@code now} is estimated as
 * {@code previous × (window − elapsed) / window + current}, where {@code elapsed} is the time since
 * the current window began. The previous window's weight falls as the current one goes on, so a
 * burst at a window's end cannot be followed by a full second burst at the next one's start, as it
 * can with a fixed window. State {@code 71|<previous>|<current>|<currentStartNs>}.
 *
 * <p>Allow: admitted when {@code estimate + cost ≤ limit}, then the current count grows by the
 * cost. The single {@code default} result reports {@code remaining = ⌊limit − estimate⌋} after the
 * request and reset = the current window's end; a denial's retry-after is the exact wait until the
 * estimate has fallen enough (it never rises without a request, so the wait is well defined).
 * Denials write nothing. TTL: until the next window ends (the state is still the previous window
 * then), at least 1 s.
 *
 * <p>Windows aligned to the epoch make every node and every shard agree on where a window starts,
 * and a key needs no first request to place its window.
 */
public final class SlidingWindow extends PolicyStrategy<Quota> {

  public static final String NAME = "sliding_window";

  public SlidingWindow(Quota quota) {
    super(NAME, StateFormat.SLIDING_WINDOW, quota);
  }

  /** Counts never exceed the limit: only admitted requests are counted. */
  @Override
  public int maxStateLength() {
    int limitDigits = Long.toString(policy().limit()).length();
    return header().length() + 2 * (limitDigits + 1) + StateFormat.MAX_INT64_LENGTH;
  }

  /**
   * The two windows around an instant.
   *
   * @param previous requests admitted in the window before the current one
   * @param current  requests admitted in the current window
   * @param startNs  the current window's start
   */
  record Windows(long previous, long current, long startNs) {
  }

  @Override
  Outcome decide(String state, long nowNs, long cost) {
    Windows windows = at(stored(state, nowNs), nowNs);
    long windowEnd = Nanos.add(windows.startNs(), policy().windowNs());
    if (!admits(windows, nowNs, cost)) {
      return Outcome.unchanged(decision(false, remaining(windows, nowNs), windowEnd, retryAfter(windows, nowNs, cost)));
    }
    Windows counted = new Windows(windows.previous(), windows.current() + cost, windows.startNs());
    return Outcome.write(decision(true, remaining(counted, nowNs), windowEnd, 0), encode(counted),
        ttl(windows.startNs(), nowNs));
  }

  @Override
  public Decision peek(String state, long nowNs) {
    Windows windows = at(stored(state, nowNs), nowNs);
    boolean allowed = admits(windows, nowNs, 1);
    return decision(allowed, remaining(windows, nowNs), Nanos.add(windows.startNs(), policy().windowNs()),
        allowed ? 0 : retryAfter(windows, nowNs, 1));
  }

  /**
   * The estimated requests in the sliding window ending at {@code nowNs}, from a stored state (or
   * {@code null} for none): what a caller that reports a rate rather than a remaining quota shows
   * (the UDP protocol's rules).
   */
  public double estimate(String state, long nowNs) {
    return estimate(at(stored(state, nowNs), nowNs), nowNs);
  }

  /** The estimated requests in the window ending at {@code nowNs}. */
  double estimate(Windows windows, long nowNs) {
    return windows.previous() * weightOfPrevious(windows, nowNs) + windows.current();
  }

  private boolean admits(Windows windows, long nowNs, long cost) {
    long room = policy().limit() - windows.current() - cost;
    return room >= 0 && windows.previous() * weightOfPrevious(windows, nowNs) <= room;
  }

  /** The share of the previous window still inside the sliding window ending at {@code nowNs}. */
  private double weightOfPrevious(Windows windows, long nowNs) {
    long window = policy().windowNs();
    long elapsed = Math.min(window, Math.max(0, Nanos.sub(nowNs, windows.startNs())));
    return (double) (window - elapsed) / window;
  }

  private long remaining(Windows windows, long nowNs) {
    return Math.max(0, (long) Math.floor(policy().limit() - estimate(windows, nowNs)));
  }

  private long retryAfter(Windows windows, long nowNs, long cost) {
    if (cost > policy().limit()) {
      return Result.NEVER;
    }
    return Nanos.waitUntil(nowNs, Nanos.add(windows.startNs(), policy().windowNs()),
        later -> admits(at(windows, later), later, cost));
  }

  /** The stored windows, or a fresh pair starting in the window of {@code nowNs}. */
  private Windows stored(String state, long nowNs) {
    return state == null ? new Windows(0, 0, windowStart(nowNs)) : decode(state);
  }

  /**
   * The windows as seen at {@code nowNs}: the same ones while {@code nowNs} is in the current
   * window (or before it, when clocks disagree), shifted by one when it is in the next window,
   * both empty after that.
   */
  Windows at(Windows windows, long nowNs) {
    long start = windowStart(nowNs);
    if (start <= windows.startNs()) {
      return windows;
    }
    if (Nanos.sub(start, windows.startNs()) == policy().windowNs()) {
      return new Windows(windows.current(), 0, start);
    }
    return new Windows(0, 0, start);
  }

  private long windowStart(long nowNs) {
    return nowNs - Math.floorMod(nowNs, policy().windowNs());
  }

  private Decision decision(boolean allowed, long remaining, long resetNs, long retryAfterNs) {
    return Decision.of(new Result(Result.DEFAULT, allowed, policy().limit(), remaining, resetNs, retryAfterNs));
  }

  /** Until the end of the window after the current one, at least a second. */
  private Duration ttl(long startNs, long nowNs) {
    long untilNextEnds = Nanos.sub(Nanos.add(startNs, Nanos.mul(policy().windowNs(), 2)), nowNs);
    return Duration.ofNanos(Math.max(untilNextEnds, Nanos.SECOND));
  }

  static String encode(Windows windows) {
    return StateFormat.SLIDING_WINDOW + windows.previous() + '|' + windows.current() + '|' + windows.startNs();
  }

  /** Rejected: another prefix, a missing field, a negative count, anything after the start. */
  static Windows decode(String state) {
    Fields fields = Fields.open(state, StateFormat.SLIDING_WINDOW, NAME);
    long previous = fields.nextLong();
    long current = fields.nextLong();
    if (previous < 0 || current < 0) {
      throw fields.malformed("negative count");
    }
    return new Windows(previous, current, fields.restLong());
  }
}
