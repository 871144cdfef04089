package io.sluice.gateway.cli;

import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TTL as people write it: {@code 60} (seconds), {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h},
 * {@code 100us}, {@code 1000ns}. Every command that takes a TTL reads it here.
 */
record Ttl(long amount, TtlUnit unit) {

  private static final Pattern FORMAT = Pattern.compile("(\\d+)(ns|us|ms|s|m|h)?");
  private static final Map<String, TtlUnit> UNITS = Map.of("ns", TtlUnit.NANOSECONDS, "us", TtlUnit.MICROSECONDS,
      "ms", TtlUnit.MILLISECONDS, "s", TtlUnit.SECONDS, "m", TtlUnit.MINUTES, "h", TtlUnit.HOURS);
  /**
   * The units a TTL given in minutes or hours is sent in, finest first. The server reports a live
   * TTL rounded down to the record's unit, so a record kept in hours would read "0 h" for its whole
   * last hour: seconds where the value size holds them.
   */
  private static final List<TtlUnit> WHOLE_UNITS = List.of(TtlUnit.SECONDS, TtlUnit.MINUTES, TtlUnit.HOURS);

  static Ttl parse(String text) {
    Matcher matcher = FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException("TTL '" + text + "': expected a whole number, in seconds unless a unit"
          + " follows (ns, us, ms, s, m, h), e.g. 60, 500ms, 5m");
    }
    long amount;
    try {
      amount = Long.parseLong(matcher.group(1));
    } catch (NumberFormatException tooLong) {
      throw new IllegalArgumentException("TTL '" + text + "' is too large");
    }
    return new Ttl(amount, matcher.group(2) == null ? TtlUnit.SECONDS : UNITS.get(matcher.group(2)));
  }

  /**
   * What INSERT and SET send: a TTL in minutes or hours goes in the finest of seconds, minutes and
   * hours that {@code size} can carry, so QUERY and GET show it to the second; a finer unit stays.
   *
   * @throws IllegalArgumentException when even the unit as written does not fit {@code size}
   */
  Ttl onWire(ValueSize size) {
    if (unit.nanosPerUnit() > TtlUnit.SECONDS.nanosPerUnit()) {
      for (TtlUnit whole : WHOLE_UNITS) {
        OptionalLong converted = times(amount, unit.nanosPerUnit() / whole.nanosPerUnit());
        if (converted.isPresent() && size.fits(converted.getAsLong())) {
          return new Ttl(converted.getAsLong(), whole);
        }
      }
    }
    return fitting(size);
  }

  /**
   * This TTL counted in {@code recordUnit}, as UPDATE needs it (UPDATE carries no unit: the server
   * reads the value in the unit stored with the record).
   *
   * @throws IllegalArgumentException when it is no whole number of that unit, or does not fit {@code size}
   */
  Ttl in(TtlUnit recordUnit, ValueSize size) {
    long nanos = unit.nanosPerUnit();
    long target = recordUnit.nanosPerUnit();
    long converted;
    if (nanos >= target) {
      converted = times(amount, nanos / target).orElseThrow(() -> new IllegalArgumentException(
          "TTL " + this + " is too large for a record counted in " + name(recordUnit)));
    } else if (amount % (target / nanos) == 0) {
      converted = amount / (target / nanos);
    } else {
      throw new IllegalArgumentException("the record counts its TTL in " + name(recordUnit) + ": " + this
          + " is no whole number of them");
    }
    return new Ttl(converted, recordUnit).fitting(size);
  }

  private static OptionalLong times(long amount, long factor) {
    try {
      return OptionalLong.of(Math.multiplyExact(amount, factor));
    } catch (ArithmeticException overflow) {
      return OptionalLong.empty();
    }
  }

  private Ttl fitting(ValueSize size) {
    if (!size.fits(amount)) {
      throw new IllegalArgumentException("TTL " + this + " does not fit --value-size " + size.name().toLowerCase(Locale.ROOT)
          + " (at most " + Long.toUnsignedString(size.max()) + " " + symbol(unit) + ")");
    }
    return this;
  }

  @Override
  public String toString() {
    return amount + symbol(unit);
  }

  /**
   * A live TTL as the server reported it, which is rounded down to the record's unit: {@code 59 s},
   * {@code 250 ms}; for minutes and hours the range it stands for ({@code under 1 h}, {@code 2 to 3 h}).
   * A unit byte outside 1..6 counts as seconds on the server.
   */
  static String format(long amount, TtlUnit unit) {
    if (unit == null) {
      return amount + " s (an unknown unit byte, counted as seconds)";
    }
    String symbol = symbol(unit);
    if (unit.nanosPerUnit() <= TtlUnit.SECONDS.nanosPerUnit()) {
      return amount + " " + symbol;
    }
    return amount == 0 ? "under 1 " + symbol : amount + " to " + (amount + 1) + " " + symbol;
  }

  /** The JSON name of a unit: {@code seconds}; {@code unknown} for a byte outside 1..6. */
  static String name(TtlUnit unit) {
    return unit == null ? "unknown" : unit.name().toLowerCase(Locale.ROOT);
  }

  private static String symbol(TtlUnit unit) {
    return UNITS.entrySet().stream().filter(entry -> entry.getValue() == unit).map(Map.Entry::getKey)
        .findFirst().orElseThrow();
  }
}
