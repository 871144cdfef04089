package io.sluice.gateway.accuracy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The accuracy checker, in the manner of Jepsen: from every grant the clients recorded, how many a
 * limit admitted beyond what it allows. Windows are fixed, {@code window} long, tiled from
 * {@code originNanos}; in each, a key's grants are taken in the order they arrived and every one
 * after the first {@code limit} is an excess grant. No sockets, no clock: figures from a list.
 */
public final class OverAdmission {

  private final long limit;
  private final long windowNanos;
  private final long originNanos;

  public OverAdmission(long limit, Duration window, long originNanos) {
    if (limit < 0 || window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("a limit of 0 or more per window above 0, was " + limit + " per " + window);
    }
    this.limit = limit;
    this.windowNanos = window.toNanos();
    this.originNanos = originNanos;
  }

  /** One key's figures in one window. {@code excessAfter} counts the excess grants at or after the mark given to {@link #check}. */
  public record Window(String key, long startNanos, long granted, long excess, long excessAfter) {
  }

  /** Every window with grants, per key in key order, windows in time order. */
  public record Report(List<Window> windows) {

    public long excess() {
      return windows.stream().mapToLong(Window::excess).sum();
    }

    public long excessAfter() {
      return windows.stream().mapToLong(Window::excessAfter).sum();
    }

    public long granted() {
      return windows.stream().mapToLong(Window::granted).sum();
    }

    /** The key's figures summed over its windows. */
    public Report of(String key) {
      return new Report(windows.stream().filter(window -> window.key().equals(key)).toList());
    }
  }

  /** Over-admission of every key in every window. */
  public Report check(List<Grant> grants) {
    return check(grants, Long.MAX_VALUE);
  }

  /**
   * Over-admission, and how much of it came at or after {@code markNanos} (a heal, a restart): the
   * excess grants are a window's latest, so those after the mark are the ones the fault's end let in.
   */
  public Report check(List<Grant> grants, long markNanos) {
    Map<String, TreeMap<Long, List<Grant>>> byKeyAndWindow = new TreeMap<>();
    for (Grant grant : grants) {
      if (grant.atNanos() - originNanos < 0) {
        throw new IllegalArgumentException("a grant before the origin: " + grant);
      }
      long start = originNanos + (grant.atNanos() - originNanos) / windowNanos * windowNanos;
      byKeyAndWindow.computeIfAbsent(grant.key(), key -> new TreeMap<>())
          .computeIfAbsent(start, window -> new ArrayList<>()).add(grant);
    }
    List<Window> windows = new ArrayList<>();
    byKeyAndWindow.forEach((key, byWindow) -> byWindow.forEach((start, inWindow) -> {
      List<Grant> ordered = inWindow.stream().sorted(Comparator.comparingLong(Grant::atNanos)).toList();
      List<Grant> excess = ordered.subList((int) Math.min(limit, ordered.size()), ordered.size());
      long after = excess.stream().filter(grant -> grant.atNanos() - markNanos >= 0).count();
      windows.add(new Window(key, start, ordered.size(), excess.size(), after));
    }));
    return new Report(List.copyOf(windows));
  }

  /** Grants per node, for the output: who admitted what. */
  public static Map<Integer, Long> perNode(List<Grant> grants) {
    return grants.stream().collect(Collectors.groupingBy(Grant::node, TreeMap::new, Collectors.counting()));
  }
}
