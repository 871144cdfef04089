package io.sluice.verticles.strategies.policy;

/**
 * One place a key part can come from. Spelled in the config as {@code param}, {@code header:NAME},
 * {@code client-ip}, {@code path:N} or {@code literal:TEXT}; {@link #spelling()} gives it back.
 */
public sealed interface KeySource {

  /** The value this source reads, or null when the request does not carry it (or it is empty). */
  String read(RequestFacts request);

  /** How the config file spells this source. */
  String spelling();

  /**
   * Parses one spelling.
   *
   * @throws IllegalArgumentException naming what is wrong and what is accepted
   */
  static KeySource parse(String text) {
    String trimmed = text.trim();
    int colon = trimmed.indexOf(':');
    String kind = colon < 0 ? trimmed : trimmed.substring(0, colon);
    String argument = colon < 0 ? null : trimmed.substring(colon + 1);
    switch (kind) {
      case "param":
        noArgument(kind, argument);
        return new Param();
      case "client-ip":
        noArgument(kind, argument);
        return new ClientIp();
      case "header":
        return new Header(required(kind, argument, "a header name, as in header:X-Api-Key"));
      case "literal":
        return new Literal(required(kind, argument, "the text, as in literal:global"));
      case "path":
        String index = required(kind, argument, "a segment number from 1, as in path:2");
        if (!index.matches("[1-9][0-9]{0,2}")) {
          throw new IllegalArgumentException("path:N takes a segment number from 1 to 999, not '" + index + "'");
        }
        return new PathSegment(Integer.parseInt(index));
      default:
        throw new IllegalArgumentException("unknown key source '" + trimmed
            + "'; use param, header:NAME, client-ip, path:N or literal:TEXT");
    }
  }

  private static void noArgument(String kind, String argument) {
    if (argument != null) {
      throw new IllegalArgumentException(kind + " takes no argument, not '" + kind + ":" + argument + "'");
    }
  }

  private static String required(String kind, String argument, String what) {
    if (argument == null || argument.isBlank()) {
      throw new IllegalArgumentException(kind + " needs " + what);
    }
    return argument.trim();
  }

  private static String presentOrNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  /** The key the caller passes explicitly: JSON {@code key} of a check, {@code ?key=} of a forwarded one. */
  record Param() implements KeySource {
    @Override
    public String read(RequestFacts request) {
      return presentOrNull(request.param());
    }

    @Override
    public String spelling() {
      return "param";
    }
  }

  /** A request header, by case-insensitive name; behind a proxy, the original request's (nginx and Envoy forward them). */
  record Header(String name) implements KeySource {
    public Header {
      if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
        throw new IllegalArgumentException("'" + name + "' is not a valid header name");
      }
    }

    @Override
    public String read(RequestFacts request) {
      String value = request.header(name);
      return value == null ? null : presentOrNull(value.trim());
    }

    @Override
    public String spelling() {
      return "header:" + name;
    }
  }

  /**
   * The address of the peer that made the check call. Behind a proxy that is the proxy: take the
   * client from a header the proxy sets instead ({@code header:X-Real-IP | client-ip}).
   */
  record ClientIp() implements KeySource {
    @Override
    public String read(RequestFacts request) {
      return presentOrNull(request.clientIp());
    }

    @Override
    public String spelling() {
      return "client-ip";
    }
  }

  /** Segment {@code index} (from 1) of the limited request's path: {@code /api/users/7}, path:2 is {@code users}. */
  record PathSegment(int index) implements KeySource {
    public PathSegment {
      if (index < 1) {
        throw new IllegalArgumentException("path segments are numbered from 1, not " + index);
      }
    }

    @Override
    public String read(RequestFacts request) {
      String path = request.path();
      if (path == null) {
        return null;
      }
      int segment = 0;
      int start = 0;
      while (start <= path.length()) {
        int slash = path.indexOf('/', start);
        int end = slash < 0 ? path.length() : slash;
        if (end > start && ++segment == index) {
          return path.substring(start, end);
        }
        if (slash < 0) {
          return null;
        }
        start = slash + 1;
      }
      return null;
    }

    @Override
    public String spelling() {
      return "path:" + index;
    }
  }

  /** Fixed text: one key shared by every caller (a global limit), or a namespace in a combined key. */
  record Literal(String text) implements KeySource {
    public Literal {
      if (text.isEmpty() || text.indexOf('|') >= 0) {
        throw new IllegalArgumentException("literal text must be non-empty and without '|'");
      }
    }

    @Override
    public String read(RequestFacts request) {
      return text;
    }

    @Override
    public String spelling() {
      return "literal:" + text;
    }
  }
}
