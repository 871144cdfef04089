package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.encoding.StateFormat;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;

import java.util.ArrayList;
import java.util.List;

/**
 * Joins two copies of one key's state that were written apart (the two sides of a cluster split)
 * into one that has consumed at least as much as each: for every strategy, at every time after
 * both were written, the joined state admits no more than either copy would. It needs no policy:
 * each field is joined towards the strict side on its own (fewer tokens and the later refill, the
 * fuller leaky bucket and the later leak, the later GCRA arrival time, the higher decaying rate and
 * the later use, per fixed-window quota the higher count and the later start). When one copy is the
 * stricter in every field it is kept as it is; otherwise the join is stricter than both, which errs
 * on the side of denying (a fixed window's count, for instance, lasts until the later window ends).
 *
 * <p>Two copies that are not states of one strategy (a policy changed meanwhile), or either of which
 * does not decode, cannot be compared: the held copy is kept.
 */
public final class StateMerge {

  private StateMerge() {
  }

  /** Whether {@code state} starts with one of the strategies' headers. */
  public static boolean isState(String state) {
    return state.length() >= 3 && headerOf(state) != null;
  }

  /**
   * The state that has consumed at least as much as {@code held} and {@code incoming}; {@code held}
   * when they cannot be compared.
   */
  public static String stricter(String held, String incoming) {
    String header = headerOf(held);
    if (header == null || !incoming.startsWith(header)) {
      return held;
    }
    try {
      return switch (header) {
        case StateFormat.TOKEN_BUCKET -> levels(held, incoming, header, TokenBucket.NAME, false);
        case StateFormat.LEAKY_BUCKET -> levels(held, incoming, header, LeakyBucket.NAME, true);
        case StateFormat.DECAYING_RATE -> levels(held, incoming, header, DecayingRate.NAME, true);
        case StateFormat.GCRA -> header + Math.max(arrival(held), arrival(incoming));
        case StateFormat.FIXED_WINDOW -> windows(held, incoming);
        case StateFormat.SLIDING_WINDOW -> slidingWindows(held, incoming);
        default -> composite(held, incoming);
      };
    } catch (MalformedStateException | NumberFormatException bad) {
      return held;
    }
  }

  private static String headerOf(String state) {
    for (String header : List.of(StateFormat.TOKEN_BUCKET, StateFormat.LEAKY_BUCKET, StateFormat.DECAYING_RATE,
        StateFormat.GCRA, StateFormat.FIXED_WINDOW, StateFormat.SLIDING_WINDOW, StateFormat.COMPOSITE)) {
      if (state.startsWith(header)) {
        return header;
      }
    }
    return null;
  }

  /**
   * A level that refills (tokens: the lower is stricter) or drains (a queue, a rate: the higher is
   * stricter) from its time on: the stricter level, brought up to date from the later time.
   */
  private static String levels(String held, String incoming, String header, String strategy, boolean higherIsStricter) {
    Level a = Level.decode(held, header, strategy);
    Level b = Level.decode(incoming, header, strategy);
    double value = higherIsStricter ? Math.max(a.value(), b.value()) : Math.min(a.value(), b.value());
    Level joined = new Level(value, Math.max(a.atNs(), b.atNs()));
    return joined.equals(a) ? held : joined.encode(header);
  }

  private static long arrival(String gcra) {
    return StateFormat.Fields.open(gcra, StateFormat.GCRA, Gcra.NAME).restLong();
  }

  /**
   * Per quota name: the higher count and the later start. Names only one copy has are kept, the
   * held copy's first, up to the format's eight entries.
   */
  private static String windows(String held, String incoming) {
    List<FixedWindow.Window> ours = FixedWindow.decode(held);
    List<FixedWindow.Window> theirs = new ArrayList<>(FixedWindow.decode(incoming));
    List<FixedWindow.Window> joined = new ArrayList<>();
    for (FixedWindow.Window own : ours) {
      FixedWindow.Window other = take(theirs, own.name());
      joined.add(other == null ? own : new FixedWindow.Window(own.name(),
          Math.max(own.count(), other.count()), Math.max(own.startNs(), other.startNs())));
    }
    for (FixedWindow.Window other : theirs) {
      if (joined.size() < 8 && find(joined, other.name()) == null) {
        joined.add(other);
      }
    }
    return joined.equals(ours) ? held : FixedWindow.encode(joined);
  }

  /**
   * The same windows: the higher of each count. Different ones: the later copy's, its previous
   * count at least the earlier copy's current one. The state does not say how long a window is,
   * so that holds whether or not the earlier window is the one just before; when it is not, it
   * errs strict, for the one window the previous count weighs in.
   */
  private static String slidingWindows(String held, String incoming) {
    SlidingWindow.Windows ours = SlidingWindow.decode(held);
    SlidingWindow.Windows theirs = SlidingWindow.decode(incoming);
    SlidingWindow.Windows joined;
    if (ours.startNs() == theirs.startNs()) {
      joined = new SlidingWindow.Windows(Math.max(ours.previous(), theirs.previous()),
          Math.max(ours.current(), theirs.current()), ours.startNs());
    } else {
      SlidingWindow.Windows later = ours.startNs() > theirs.startNs() ? ours : theirs;
      SlidingWindow.Windows earlier = later == ours ? theirs : ours;
      joined = new SlidingWindow.Windows(Math.max(later.previous(), earlier.current()), later.current(),
          later.startNs());
    }
    return joined.equals(ours) ? held : SlidingWindow.encode(joined);
  }

  private static FixedWindow.Window take(List<FixedWindow.Window> windows, String name) {
    FixedWindow.Window found = find(windows, name);
    windows.remove(found);
    return found;
  }

  private static FixedWindow.Window find(List<FixedWindow.Window> windows, String name) {
    for (FixedWindow.Window window : windows) {
      if (window.name().equals(name)) {
        return window;
      }
    }
    return null;
  }

  /** Each side joined on its own; a fresh (empty) side takes the other copy's. */
  private static String composite(String held, String incoming) {
    Composite.Sides ours = Composite.Sides.decode(held);
    Composite.Sides theirs = Composite.Sides.decode(incoming);
    String joined = StateFormat.COMPOSITE + side(ours.primary(), theirs.primary()) + '$'
        + side(ours.secondary(), theirs.secondary());
    return joined.equals(held) ? held : joined;
  }

  private static String side(String held, String incoming) {
    if (held == null) {
      return incoming == null ? "" : incoming;
    }
    return incoming == null ? held : stricter(held, incoming);
  }
}
