package io.sluice.verticles.strategies.encoding;

import io.sluice.verticles.strategies.MalformedStateException;

/**
 * The compact ASCII state format (spec §5), shared by every strategy: a 2-character header
 * {@code <strategyId><version>} and {@code |}, then {@code |}-separated fields. Integers are
 * base 10 with an optional sign and no padding; floats are {@link GoFloat} text.
 *
 * <p>Decoding follows Go's {@code strconv} leniencies (spec §5.3): integers may carry a leading
 * {@code +} or zeros, floats may be written {@code 1e+06}, {@code .5}, {@code 1.}, {@code 0x1p-2}
 * or {@code 1_000}. Sluice refuses non-finite floats, which upstream accepts (and then denies
 * forever). Any failure is a {@link MalformedStateException} naming the strategy.
 */
public final class StateFormat {

  /** Token bucket v2: {@code 12|<tokens>|<lastRefillNs>}. */
  public static final String TOKEN_BUCKET = "12|";
  /** Fixed window v3: {@code 23|<N>|<name>|<count>|<startNs>…}. */
  public static final String FIXED_WINDOW = "23|";
  /** Leaky bucket v2: {@code 32|<requests>|<lastLeakNs>}. */
  public static final String LEAKY_BUCKET = "32|";
  /** GCRA v2: {@code 42|<tatNs>}. */
  public static final String GCRA = "42|";
  /** Composite v1: {@code 51|<primaryState>$<secondaryState>}. */
  public static final String COMPOSITE = "51|";
  /** Decaying rate v1, a Sluice extension: {@code 61|<rate>|<lastNs>}. */
  public static final String DECAYING_RATE = "61|";
  /** Sliding window v1, a Sluice extension: {@code 71|<previousCount>|<currentCount>|<currentStartNs>}. */
  public static final String SLIDING_WINDOW = "71|";

  /** The longest int64 text, {@code -9223372036854775808}. */
  public static final int MAX_INT64_LENGTH = 20;

  /** The longest float text: sign, 17 digits, point and a three-digit exponent ({@code e-308}). */
  public static final int MAX_FLOAT_LENGTH = 24;

  private StateFormat() {
  }

  /** A float the way every state writes it: {@link GoFloat#format}. */
  public static String formatFloat(double value) {
    return GoFloat.format(value);
  }

  /**
   * A {@code <header><float>|<int64>} state — token bucket, leaky bucket and decaying rate.
   *
   * @param value the level: tokens, queued requests or the rate
   * @param atNs when the level was last brought up to date, epoch nanoseconds
   */
  public record Level(double value, long atNs) {

    /** The longest {@link #encode} under this header. */
    public static int maxLength(String header) {
      return header.length() + MAX_FLOAT_LENGTH + 1 + MAX_INT64_LENGTH;
    }

    public String encode(String header) {
      return header + GoFloat.format(value) + '|' + atNs;
    }

    /** Rejected: wrong prefix, no second {@code |}, a bad float, anything but one int64 after it. */
    public static Level decode(String state, String header, String strategy) {
      Fields fields = Fields.open(state, header, strategy);
      double value = fields.nextFloat();
      long atNs = fields.restLong();
      return new Level(value, atNs);
    }
  }

  /** A cursor over the {@code |}-separated fields of one state, after its header. */
  public static final class Fields {

    private final String state;
    private final String strategy;
    private int position;

    private Fields(String state, String strategy, int position) {
      this.state = state;
      this.strategy = strategy;
      this.position = position;
    }

    /** Checks the header (exactly this 3-character prefix) and starts after it. */
    public static Fields open(String state, String header, String strategy) {
      if (!state.startsWith(header)) {
        throw new MalformedStateException(strategy, state, "does not start with " + header);
      }
      return new Fields(state, strategy, header.length());
    }

    /** The text up to the next {@code |}, which must exist; the cursor moves past it. */
    public String next() {
      int bar = state.indexOf('|', position);
      if (bar < 0) {
        throw malformed("missing '|' after position " + position);
      }
      String field = state.substring(position, bar);
      position = bar + 1;
      return field;
    }

    /** Everything after the cursor; the cursor moves to the end. */
    public String rest() {
      String rest = state.substring(position);
      position = state.length();
      return rest;
    }

    public double nextFloat() {
      return toFloat(next());
    }

    public long nextLong() {
      return toLong(next());
    }

    /** The rest of the state, which must be exactly one int64 (no further fields). */
    public long restLong() {
      return toLong(rest());
    }

    public MalformedStateException malformed(String reason) {
      return new MalformedStateException(strategy, state, reason);
    }

    private double toFloat(String text) {
      try {
        return GoFloat.parse(text);
      } catch (NumberFormatException e) {
        throw malformed("bad float: " + e.getMessage());
      }
    }

    private long toLong(String text) {
      try {
        return parseInt64(text);
      } catch (NumberFormatException e) {
        throw malformed("bad integer: " + e.getMessage());
      }
    }
  }

  /**
   * Go's {@code strconv.ParseInt(s, 10, 64)}: optional {@code +} or {@code -}, then one or more ASCII
   * digits (leading zeros allowed), within int64.
   *
   * @throws NumberFormatException with the reason
   */
  public static long parseInt64(String s) {
    int n = s.length();
    int i = 0;
    boolean negative = false;
    if (n > 0 && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      negative = s.charAt(0) == '-';
      i = 1;
    }
    if (i == n) {
      throw new NumberFormatException("no digits in '" + s + "'");
    }
    long magnitude = 0; // accumulated negatively so that Long.MIN_VALUE fits
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw new NumberFormatException("not a base-10 integer '" + s + "'");
      }
      int digit = c - '0';
      if (magnitude < (Long.MIN_VALUE + digit) / 10) {
        throw new NumberFormatException("out of int64 range '" + s + "'");
      }
      magnitude = magnitude * 10 - digit;
    }
    if (!negative) {
      if (magnitude == Long.MIN_VALUE) {
        throw new NumberFormatException("out of int64 range '" + s + "'");
      }
      return -magnitude;
    }
    return magnitude;
  }
}
