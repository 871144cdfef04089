package io.sluice.verticles.yaml;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as every Sluice configuration writes them: a whole number and a unit, {@code 500ms},
 * {@code 10s}, {@code 5m}, {@code 1h}, {@code 1d}. One reader for policy windows and options alike.
 */
public final class DurationText {

  /** What the text must look like, for messages. */
  public static final String FORM = "a positive duration with a unit (500ms, 10s, 5m, 1h, 1d)";

  private static final Pattern DURATION = Pattern.compile("([0-9]{1,18})(ms|s|m|h|d)");

  private DurationText() {
  }

  /**
   * @throws IllegalArgumentException when the text is not of the form, is zero, or is too long to
   *     count in nanoseconds (about 292 years); the message says which, without the text
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("must be " + FORM);
    }
    long amount = Long.parseLong(m.group(1));
    Duration duration;
    try {
      duration = switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        default -> Duration.ofDays(amount);
      };
      duration.toNanos();
    } catch (ArithmeticException tooLong) {
      throw new IllegalArgumentException("is too long (at most about 292 years)");
    }
    if (duration.isZero()) {
      throw new IllegalArgumentException("must be " + FORM);
    }
    return duration;
  }

  /** The shortest spelling {@link #parse} reads back as the same duration. */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1000L};
    String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (millis % sizes[i] == 0) {
        return millis / sizes[i] + units[i];
      }
    }
    return millis + "ms";
  }
}
