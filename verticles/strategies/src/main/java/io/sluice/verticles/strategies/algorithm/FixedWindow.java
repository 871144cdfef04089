package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.encoding.StateFormat;
import io.sluice.verticles.strategies.encoding.StateFormat.Fields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixed window with several named quotas (spec §3.2). Each quota's window starts at the first
 * request after the previous one expired ({@code now − start ≥ window}), not on clock boundaries.
 * State {@code 23|<N>|<name>|<count>|<startNs>|…}, one entry per quota in policy order.
 *
 * <p>Allow: every quota is brought up to date (expired → count 0, start now; absent → the same);
 * the request is admitted only if every quota has {@code count + cost ≤ limit}, and then every
 * count grows by the cost — all or nothing. Each quota reports {@code remaining = limit − count}
 * and reset = start + window; in a denial a quota that could still take the request reports
 * allowed. Peek reports the same without consuming, allowed if remaining is positive.
 *
 * <p>TTL: the latest window end minus now, times 5, or 1 s when that is under a second.
 *
 * <p>Deviation from upstream, as the spec recommends: a quota missing from the stored state (added
 * to the policy while state exists) starts fresh and is enforced at once; upstream never enforces
 * it until the whole record expires. Stored entries for names no longer in the policy are ignored
 * and dropped at the next write.
 */
public final class FixedWindow extends PolicyStrategy<WindowPolicy> {

  public static final String NAME = "fixed_window";

  public FixedWindow(WindowPolicy policy) {
    super(NAME, StateFormat.FIXED_WINDOW, policy);
  }

  /** Counts never exceed their limit: only admitted requests are written. */
  @Override
  public int maxStateLength() {
    int length = header().length() + 1;
    for (Quota q : policy().quotas()) {
      length += 3 + q.name().length() + Long.toString(q.limit()).length() + StateFormat.MAX_INT64_LENGTH;
    }
    return length;
  }

  /** One quota's window as stored: name, requests counted, start in epoch nanoseconds. */
  record Window(String name, long count, long startNs) {
  }

  @Override
  Outcome decide(String state, long nowNs, long cost) {
    List<Window> windows = current(state, nowNs);
    List<Quota> quotas = policy().quotas();
    boolean admitted = true;
    for (int i = 0; i < quotas.size(); i++) {
      admitted &= fits(quotas.get(i), windows.get(i), cost);
    }
    List<Result> results = new ArrayList<>(quotas.size());
    if (!admitted) {
      for (int i = 0; i < quotas.size(); i++) {
        Quota q = quotas.get(i);
        Window w = windows.get(i);
        boolean fits = fits(q, w, cost);
        long reset = Nanos.add(w.startNs(), q.windowNs());
        long retryAfter = fits ? 0 : cost > q.limit() ? Result.NEVER : Nanos.sub(reset, nowNs);
        results.add(new Result(q.name(), fits, q.limit(), remaining(q, w), reset, retryAfter));
      }
      return Outcome.unchanged(new Decision(results));
    }
    List<Window> consumed = new ArrayList<>(quotas.size());
    long latestReset = Long.MIN_VALUE;
    for (int i = 0; i < quotas.size(); i++) {
      Quota q = quotas.get(i);
      Window w = windows.get(i);
      Window next = new Window(q.name(), w.count() + cost, w.startNs());
      long reset = Nanos.add(next.startNs(), q.windowNs());
      latestReset = Math.max(latestReset, reset);
      consumed.add(next);
      results.add(new Result(q.name(), true, q.limit(), remaining(q, next), reset, 0));
    }
    return Outcome.write(new Decision(results), encode(consumed), ttl(latestReset, nowNs));
  }

  @Override
  public Decision peek(String state, long nowNs) {
    List<Window> windows = current(state, nowNs);
    List<Quota> quotas = policy().quotas();
    List<Result> results = new ArrayList<>(quotas.size());
    for (int i = 0; i < quotas.size(); i++) {
      Quota q = quotas.get(i);
      Window w = windows.get(i);
      long remaining = remaining(q, w);
      long reset = Nanos.add(w.startNs(), q.windowNs());
      long retryAfter = remaining > 0 ? 0 : Nanos.sub(reset, nowNs);
      results.add(new Result(q.name(), remaining > 0, q.limit(), remaining, reset, retryAfter));
    }
    return new Decision(results);
  }

  /** Each configured quota's window at {@code now}, in policy order. */
  private List<Window> current(String state, long nowNs) {
    List<Window> stored = state == null ? List.of() : decode(state);
    List<Window> windows = new ArrayList<>(policy().quotas().size());
    for (Quota q : policy().quotas()) {
      Window found = null;
      for (Window w : stored) {
        if (w.name().equals(q.name())) {
          found = w;
          break;
        }
      }
      boolean expired = found == null || Nanos.sub(nowNs, found.startNs()) >= q.windowNs();
      windows.add(expired ? new Window(q.name(), 0, nowNs) : found);
    }
    return windows;
  }

  private static boolean fits(Quota q, Window w, long cost) {
    return w.count() <= q.limit() - cost;
  }

  private static long remaining(Quota q, Window w) {
    return Math.max(q.limit() - w.count(), 0);
  }

  private static Duration ttl(long latestReset, long nowNs) {
    long ttl = Nanos.sub(latestReset, nowNs);
    if (ttl < Nanos.SECOND) {
      return Duration.ofSeconds(1);
    }
    return Duration.ofNanos(Nanos.mul(ttl, 5));
  }

  /** {@code 23|<N>|<name>|<count>|<startNs>…} in the given order. */
  static String encode(List<Window> windows) {
    StringBuilder out = new StringBuilder(StateFormat.FIXED_WINDOW).append(windows.size());
    for (Window w : windows) {
      out.append('|').append(w.name()).append('|').append(w.count()).append('|').append(w.startNs());
    }
    return out.toString();
  }

  /**
   * Decodes a {@code 23|} state (spec §5.3). Rejected: shorter than 10 characters, another prefix,
   * a quota count that is not one character in 1…8, a missing {@code |}, a count that is not a
   * non-negative int64, a start that is not an int64, anything after the last start. Accepted:
   * empty names, counts above the limit, unknown names, more or fewer entries than quotas.
   */
  static List<Window> decode(String state) {
    if (state.length() < 10) {
      throw new MalformedStateException(NAME, state, "shorter than 10 characters");
    }
    Fields fields = Fields.open(state, StateFormat.FIXED_WINDOW, NAME);
    String n = fields.next();
    if (n.length() != 1 || n.charAt(0) < '1' || n.charAt(0) > '8') {
      throw fields.malformed("quota count is not one digit in 1..8");
    }
    int entries = n.charAt(0) - '0';
    List<Window> windows = new ArrayList<>(entries);
    for (int i = 0; i < entries; i++) {
      String name = fields.next();
      long count = fields.nextLong();
      if (count < 0) {
        throw fields.malformed("negative count");
      }
      long start = i == entries - 1 ? fields.restLong() : fields.nextLong();
      windows.add(new Window(name, count, start));
    }
    return windows;
  }
}
