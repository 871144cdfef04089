package io.sluice.gateway.cli;

import io.sluice.protocol.binary.codec.TtlUnit;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A TTL as people write it: {@code 60} (seconds), {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 100us}, {@code 1000ns}. */
record Ttl(long amount, TtlUnit unit) {

  private static final Pattern FORMAT = Pattern.compile("(\\d+)(ns|us|ms|s|m|h)?");
  private static final Map<String, TtlUnit> UNITS = Map.of("ns", TtlUnit.NANOSECONDS, "us", TtlUnit.MICROSECONDS,
      "ms", TtlUnit.MILLISECONDS, "s", TtlUnit.SECONDS, "m", TtlUnit.MINUTES, "h", TtlUnit.HOURS);

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

  /** {@code 59 s}, {@code 250 ms}: the unit's short name, as parse accepts it. */
  static String format(long amount, TtlUnit unit) {
    return amount + " " + (unit == null ? "(unknown unit)" : UNITS.entrySet().stream()
        .filter(entry -> entry.getValue() == unit).map(Map.Entry::getKey).findFirst().orElseThrow());
  }
}
