package io.sluice.gateway.config;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.yaml.DurationText;
import io.sluice.verticles.engine.persist.FsyncPolicy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * How the text of one option becomes a typed, validated value, and back again for display.
 * Every source (flag, environment variable, YAML scalar) hands over text, so there is exactly
 * one parser per option whatever the source.
 *
 * <p>{@link #parse} throws {@link IllegalArgumentException} whose message says what was expected
 * without repeating the input: the caller adds the input (unless the option is secret) and its
 * source.
 *
 * @param <T> the parsed type
 */
public final class ValueType<T> {

  /** Host names per RFC 1123: letters, digits and inner hyphens, 1 to 63 characters a label. */
  private static final Pattern HOST_NAME_LABEL = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
  private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");
  /** Characters an IPv6 literal may hold, including a {@code %scope} suffix. */
  private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9A-Za-z:.%]+");
  private static final Pattern DECIMAL = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern DURATION = Pattern.compile("([0-9]+)(ms|s|m|h)");

  private final String constraint;
  private final Function<String, T> parser;
  private final Function<T, String> formatter;

  /** Package-private so that types of one feature can live beside it ({@link TelemetryValueTypes}). */
  ValueType(String constraint, Function<String, T> parser, Function<T, String> formatter) {
    this.constraint = Objects.requireNonNull(constraint);
    this.parser = Objects.requireNonNull(parser);
    this.formatter = Objects.requireNonNull(formatter);
  }

  /** What the type accepts, for help and documentation, e.g. "0..65535". */
  public String constraint() {
    return constraint;
  }

  /** @throws IllegalArgumentException if the text is not a valid value; the message says why */
  public T parse(String text) {
    return parser.apply(text);
  }

  /** The value spelled the way {@link #parse} accepts it. */
  public String format(T value) {
    return formatter.apply(value);
  }

  /** A decimal integer in {@code [min, max]}. */
  public static ValueType<Integer> integer(int min, int max) {
    String range = min + ".." + max;
    return new ValueType<>(range, text -> (int) parseDecimal(text, min, max, range), String::valueOf);
  }

  /** A decimal long in {@code [min, max]}. */
  public static ValueType<Long> longInteger(long min, long max) {
    String range = min + ".." + max;
    return new ValueType<>(range, text -> parseDecimal(text, min, max, range), String::valueOf);
  }

  /** A TCP or UDP port; 0 lets the operating system pick a free one. */
  public static ValueType<Integer> port() {
    return integer(0, 65535);
  }

  /**
   * An address to bind to: an IPv4 literal, an IPv6 literal (brackets optional) or a host name.
   * Validated by syntax only: resolving names here would make startup depend on DNS before any
   * listener exists, and Vert.x resolves the name anyway when it binds.
   */
  public static ValueType<String> host() {
    return new ValueType<>("IPv4 or IPv6 address, or host name", ValueType::parseHost, Function.identity());
  }

  /** The width of value fields on the Throttr wire. */
  public static ValueType<ValueSize> valueSize() {
    return new ValueType<>("uint8|uint16|uint32|uint64", ValueType::parseValueSize, ValueSize::label);
  }

  /** A file system path; existence is checked by whoever opens it, with a better message. */
  public static ValueType<Path> path() {
    return new ValueType<>("file path", ValueType::parsePath, Path::toString);
  }

  /**
   * A shared secret: visible ASCII without spaces, so it survives HTTP headers, shells and YAML
   * unchanged. Formatting masks it, because formatted values end up in logs.
   */
  public static ValueType<String> secretToken() {
    return new ValueType<>("non-empty visible ASCII, no spaces", ValueType::parseToken, token -> Option.MASK);
  }

  /**
   * Browser origins allowed to open the WebSocket bridge: comma-separated
   * {@code scheme://host[:port]} entries, or {@code *} for any origin.
   */
  public static ValueType<java.util.List<String>> origins() {
    return new ValueType<>("comma-separated scheme://host[:port], or *", ValueType::parseOrigins,
        origins -> String.join(",", origins));
  }

  private static java.util.List<String> parseOrigins(String text) {
    return parseList(text, origin -> {
      java.net.URI uri;
      try {
        uri = java.net.URI.create(origin);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("expected scheme://host[:port] entries");
      }
      if (uri.getScheme() == null || uri.getHost() == null || (uri.getPath() != null && !uri.getPath().isEmpty())) {
        throw new IllegalArgumentException("expected scheme://host[:port] entries");
      }
      return origin;
    });
  }

  /**
   * Host names the HTTP port answers besides those it always does: comma-separated, without
   * scheme or port, or {@code *} for any.
   */
  public static ValueType<java.util.List<String>> hosts() {
    return new ValueType<>("comma-separated host names, or *", ValueType::parseHosts, hosts -> String.join(",", hosts));
  }

  private static java.util.List<String> parseHosts(String text) {
    return parseList(text, ValueType::parseHost);
  }

  /** Comma-separated entries, each checked by {@code entry}, or {@code *}; empty entries are skipped. */
  private static java.util.List<String> parseList(String text, java.util.function.UnaryOperator<String> entry) {
    java.util.List<String> entries = new java.util.ArrayList<>();
    for (String part : text.split(",")) {
      String trimmed = part.trim();
      if (!trimmed.isEmpty()) {
        entries.add(trimmed.equals("*") ? trimmed : entry.apply(trimmed));
      }
    }
    return java.util.List.copyOf(entries);
  }

  /** One of a fixed set of words, any case; the value is the word in lower case. */
  public static ValueType<String> oneOf(String... words) {
    java.util.List<String> allowed = java.util.List.of(words);
    String constraint = String.join("|", allowed);
    return new ValueType<>(constraint, text -> {
      String word = text.trim().toLowerCase(Locale.ROOT);
      if (!allowed.contains(word)) {
        throw new IllegalArgumentException("expected " + constraint);
      }
      return word;
    }, Function.identity());
  }

  /** Cluster members to join: comma-separated {@code host[:port]} (no {@code *}). */
  public static ValueType<java.util.List<String>> members() {
    return new ValueType<>("comma-separated HOST[:PORT]", ValueType::parseMembers, members -> String.join(",", members));
  }

  private static java.util.List<String> parseMembers(String text) {
    java.util.List<String> members = parseList(text, member -> {
      int colon = member.lastIndexOf(':');
      boolean hasPort = colon > 0 && member.indexOf(':') == colon || member.startsWith("[") && member.contains("]:");
      if (hasPort) {
        parseHost(member.substring(0, colon));
        parseDecimal(member.substring(colon + 1), 1, 65535, "1..65535");
      } else {
        parseHost(member);
      }
      return member;
    });
    if (members.contains("*")) {
      throw new IllegalArgumentException("name the members: * is not a member");
    }
    return members;
  }

  /** A name of letters, digits, '.', '_' and '-' (a cluster's name). */
  public static ValueType<String> simpleName() {
    return new ValueType<>("letters, digits, . _ -", text -> {
      if (!text.matches("[A-Za-z0-9._-]{1,64}")) {
        throw new IllegalArgumentException("expected 1 to 64 letters, digits, '.', '_' or '-'");
      }
      return text;
    }, Function.identity());
  }

  /**
   * A duration: a whole number and a unit, {@code ms}, {@code s}, {@code m} or {@code h}
   * ({@code 500ms}, {@code 10s}, {@code 5m}); with {@code offAllowed}, {@code off} or {@code 0}
   * mean none and are {@link java.time.Duration#ZERO}.
   */
  public static ValueType<java.time.Duration> duration(java.time.Duration max, boolean offAllowed) {
    String constraint = "a number and ms|s|m|h, up to " + formatDuration(max) + (offAllowed ? ", or off" : "");
    return new ValueType<>(constraint, text -> parseDuration(text, max, offAllowed, constraint),
        ValueType::formatDuration);
  }

  private static java.time.Duration parseDuration(String text, java.time.Duration max, boolean offAllowed,
                                                  String constraint) {
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    if (offAllowed && (trimmed.equals("off") || trimmed.equals("0"))) {
      return java.time.Duration.ZERO;
    }
    java.util.regex.Matcher parts = DURATION.matcher(trimmed);
    if (!parts.matches() || parts.group(1).length() > 9) {
      throw new IllegalArgumentException("expected " + constraint);
    }
    long amount = Long.parseLong(parts.group(1));
    java.time.Duration duration = switch (parts.group(2)) {
      case "ms" -> java.time.Duration.ofMillis(amount);
      case "s" -> java.time.Duration.ofSeconds(amount);
      case "m" -> java.time.Duration.ofMinutes(amount);
      default -> java.time.Duration.ofHours(amount);
    };
    if (duration.isZero() || duration.compareTo(max) > 0) {
      throw new IllegalArgumentException("expected " + constraint);
    }
    return duration;
  }

  /** The largest whole unit: 10s, 1500ms, 5m; off for zero. */
  static String formatDuration(java.time.Duration duration) {
    long millis = duration.toMillis();
    if (millis == 0) {
      return "off";
    } else if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + "h";
    } else if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    } else if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }

  /** When the append-only log is forced to disk. */
  public static ValueType<FsyncPolicy> fsyncPolicy() {
    return new ValueType<>("always|everysec|no", FsyncPolicy::parse, FsyncPolicy::label);
  }

  /** A positive duration with a unit: 500ms, 10s, 5m, 1h, 1d. */
  public static ValueType<java.time.Duration> duration() {
    return new ValueType<>("duration: 500ms, 10s, 5m, 1h, 1d", text -> {
      try {
        return DurationText.parse(text);
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException("expected a duration that " + bad.getMessage().replaceFirst("^must be ", "is "));
      }
    }, DurationText::format);
  }

  /** {@code true} or {@code false}, any case. */
  public static ValueType<Boolean> bool() {
    return new ValueType<>("true|false", ValueType::parseBoolean, String::valueOf);
  }

  static boolean isBooleanLiteral(String text) {
    return "true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text);
  }

  private static long parseDecimal(String text, long min, long max, String range) {
    String trimmed = text.trim();
    String expectation = "expected an integer in " + range;
    if (!DECIMAL.matcher(trimmed).matches()) {
      throw new IllegalArgumentException(expectation);
    }
    long value;
    try {
      value = Long.parseLong(trimmed);
    } catch (NumberFormatException tooLong) {
      throw new IllegalArgumentException(expectation);
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(expectation);
    }
    return value;
  }

  private static String parseHost(String text) {
    String host = text.trim();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("expected an IPv4 or IPv6 address or a host name, got an empty string");
    }
    if (host.indexOf(':') >= 0) {
      return parseIpv6(host);
    }
    if (DIGITS_AND_DOTS.matcher(host).matches()) {
      return parseIpv4(host);
    }
    return parseHostName(host);
  }

  private static String parseIpv4(String host) {
    String[] octets = host.split("\\.", -1);
    boolean valid = octets.length == 4;
    for (int i = 0; valid && i < octets.length; i++) {
      valid = !octets[i].isEmpty() && octets[i].length() <= 3 && Integer.parseInt(octets[i]) <= 255;
    }
    if (!valid) {
      throw new IllegalArgumentException("not a valid IPv4 address");
    }
    return host;
  }

  private static String parseIpv6(String host) {
    // InetAddress only treats text as a literal (never a DNS lookup) when it starts with a hex
    // digit or ':', which the character check plus the first-character check guarantee.
    char first = host.charAt(0);
    boolean literalShape = IPV6_CHARACTERS.matcher(host).matches()
        && (first == ':' || Character.digit(first, 16) >= 0);
    if (literalShape) {
      try {
        InetAddress.getByName(host);
        return host;
      } catch (UnknownHostException | SecurityException invalid) {
        // fall through to the common message
      }
    }
    throw new IllegalArgumentException("not a valid IPv6 address");
  }

  private static String parseHostName(String host) {
    String withoutRootDot = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    boolean valid = !withoutRootDot.isEmpty() && withoutRootDot.length() <= 253;
    for (String label : withoutRootDot.split("\\.", -1)) {
      valid &= HOST_NAME_LABEL.matcher(label).matches();
    }
    if (!valid) {
      throw new IllegalArgumentException("not a valid host name (letters, digits, '-' and '.')");
    }
    return host;
  }

  private static ValueSize parseValueSize(String text) {
    try {
      return ValueSize.parse(text);
    } catch (IllegalArgumentException invalid) {
      // The codec's message repeats the input, which the loader already quotes.
      throw new IllegalArgumentException("expected uint8, uint16, uint32 or uint64");
    }
  }

  private static Path parsePath(String text) {
    if (text.isBlank()) {
      throw new IllegalArgumentException("expected a file path, got an empty string");
    }
    try {
      return Path.of(text);
    } catch (InvalidPathException invalid) {
      throw new IllegalArgumentException("not a valid path: " + invalid.getReason());
    }
  }

  private static String parseToken(String text) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("must not be empty");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        // Position only: the token itself must not appear in any message.
        throw new IllegalArgumentException("character " + (i + 1) + " is not visible ASCII (spaces and control characters are not allowed)");
      }
    }
    return text;
  }

  private static final Pattern BYTE_SIZE = Pattern.compile("([0-9]{1,19})\\s*(b|kb|mb|gb|tb)?", Pattern.CASE_INSENSITIVE);
  private static final String[] BYTE_UNITS = {"b", "kb", "mb", "gb", "tb"};

  /**
   * A number of bytes, plain or with a unit: {@code kb}, {@code mb}, {@code gb}, {@code tb} are
   * powers of 1024 (as in Redis's {@code maxmemory 512mb}); any case. Formatted in the largest unit
   * that divides it.
   */
  public static ValueType<Long> byteSize(long min, long max) {
    String range = formatBytes(min) + ".." + formatBytes(max) + ", e.g. 512mb or 2gb";
    return new ValueType<>(range, text -> parseBytes(text, min, max, range), ValueType::formatBytes);
  }

  private static long parseBytes(String text, long min, long max, String range) {
    java.util.regex.Matcher match = BYTE_SIZE.matcher(text.trim());
    String expectation = "expected a size in " + range;
    if (!match.matches()) {
      throw new IllegalArgumentException(expectation);
    }
    String unit = match.group(2) == null ? "b" : match.group(2).toLowerCase(Locale.ROOT);
    int power = java.util.Arrays.asList(BYTE_UNITS).indexOf(unit);
    long bytes;
    try {
      bytes = Math.multiplyExact(Long.parseLong(match.group(1)), 1L << (10 * power));
    } catch (ArithmeticException | NumberFormatException tooLarge) {
      throw new IllegalArgumentException(expectation);
    }
    if (bytes < min || bytes > max) {
      throw new IllegalArgumentException(expectation);
    }
    return bytes;
  }

  private static String formatBytes(long bytes) {
    int power = 0;
    while (power < BYTE_UNITS.length - 1 && bytes != 0 && bytes % (1L << (10 * (power + 1))) == 0) {
      power++;
    }
    return (bytes >> (10 * power)) + BYTE_UNITS[power];
  }

  /** What a full storage shard does: {@code volatile-ttl} or {@code reject}. */
  public static ValueType<io.sluice.verticles.engine.storage.Eviction> eviction() {
    return new ValueType<>("volatile-ttl|reject", io.sluice.verticles.engine.storage.Eviction::parse,
        io.sluice.verticles.engine.storage.Eviction::label);
  }

  private static Boolean parseBoolean(String text) {
    String trimmed = text.trim();
    if (!isBooleanLiteral(trimmed)) {
      throw new IllegalArgumentException("expected true or false");
    }
    return Boolean.valueOf(trimmed.toLowerCase(Locale.ROOT));
  }
}
