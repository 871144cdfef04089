package io.sluice.verticles.strategies.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * How a policy builds the limited key from a request: one or more parts joined with {@code :}
 * (client IP and route, say), each taken from the first of its alternative sources that the
 * request carries ({@code param | header:X-Api-Key}: the explicit key, else the header).
 *
 * <p>In the config a part is spelled {@code source | source …} and a combined key is a list of parts.
 */
public final class KeyExtractor {

  /** The key is the one the caller names: JSON {@code key}, or {@code ?key=} on a forwarded check. */
  public static final KeyExtractor PARAM = of("param");

  private final List<List<KeySource>> parts;
  /** Asked twice per check: known once. */
  private final boolean acceptsParam;

  private KeyExtractor(List<List<KeySource>> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a key needs at least one part");
    }
    this.parts = List.copyOf(parts);
    this.acceptsParam = parts.stream().flatMap(List::stream).anyMatch(source -> source instanceof KeySource.Param);
  }

  /**
   * Parses one spelling per part.
   *
   * @throws IllegalArgumentException naming the bad part
   */
  public static KeyExtractor of(String... parts) {
    return of(List.of(parts));
  }

  public static KeyExtractor of(List<String> parts) {
    List<List<KeySource>> parsed = new ArrayList<>();
    for (String part : parts) {
      List<KeySource> alternatives = new ArrayList<>();
      for (String alternative : part.split("\\|", -1)) {
        if (alternative.isBlank()) {
          throw new IllegalArgumentException("'" + part + "' has an empty alternative");
        }
        alternatives.add(KeySource.parse(alternative));
      }
      parsed.add(List.copyOf(alternatives));
    }
    return new KeyExtractor(parsed);
  }

  /** The key for this request, or null when some part has no source the request carries. */
  public String keyOf(RequestFacts request) {
    if (parts.size() == 1) {
      return firstPresent(parts.get(0), request);
    }
    StringBuilder key = new StringBuilder();
    for (List<KeySource> part : parts) {
      String value = firstPresent(part, request);
      if (value == null) {
        return null;
      }
      if (key.length() > 0) {
        key.append(':');
      }
      key.append(value);
    }
    return key.toString();
  }

  private static String firstPresent(List<KeySource> alternatives, RequestFacts request) {
    for (KeySource source : alternatives) {
      String value = source.read(request);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /** Whether some part may come from the caller's explicit key. */
  public boolean acceptsParam() {
    return acceptsParam;
  }

  /** The config spelling: {@code param | header:x-api-key}, or {@code [client-ip, path:2]}. */
  public String spelling() {
    StringJoiner all = new StringJoiner(", ", parts.size() == 1 ? "" : "[", parts.size() == 1 ? "" : "]");
    for (List<KeySource> part : parts) {
      StringJoiner alternatives = new StringJoiner(" | ");
      part.forEach(source -> alternatives.add(source.spelling()));
      all.add(alternatives.toString());
    }
    return all.toString();
  }

  @Override
  public String toString() {
    return spelling();
  }
}
