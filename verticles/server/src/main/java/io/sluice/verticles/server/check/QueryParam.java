package io.sluice.verticles.server.check;

import io.vertx.core.http.HttpServerRequest;

/**
 * One query parameter of a forwarded check ({@code ?key=}, {@code ?cost=}) read straight from the
 * request's URI. {@link HttpServerRequest#getParam} decodes the whole query into a map of lists and
 * then a case-insensitive multimap, per request: about 4 % of the check's CPU. The answers are
 * Vert.x's: names match ignoring (ASCII) case, the first occurrence wins, {@code &} and {@code ;}
 * separate, {@code #} ends the query, a name without {@code =} has the empty value, and only the
 * first 1,024 parameters count. A query that needs decoding ({@code %} escapes, {@code +}, or
 * characters beyond ASCII) is left to Vert.x's decoder, so escapes keep one meaning.
 */
final class QueryParam {

  /** The parameters Vert.x's query decoder keeps; a name found past them is left to it. */
  static final int PARAMS_LIMIT = 1024;
  /** What {@link #scan} answers when only Vert.x's decoder can tell: compared by identity. */
  @SuppressWarnings("StringOperationCanBeSimplified")
  static final String UNDECIDED = new String("undecided");

  private QueryParam() {
  }

  /** The first value of {@code name} in the request's query, or null; as {@link HttpServerRequest#getParam}. */
  static String of(HttpServerRequest request, String name) {
    String value = scan(request.uri(), name);
    // Identity: a query may well hold the text "undecided".
    return value == UNDECIDED ? request.getParam(name) : value;
  }

  /**
   * The first value of {@code name} (ASCII) in {@code uri}'s query, null when it has none, or
   * {@link #UNDECIDED} when the query needs decoding or holds the name past the limit.
   */
  static String scan(String uri, String name) {
    int from = queryStart(uri);
    if (from < 0) {
      return null;
    }
    // The walk of Netty's QueryStringDecoder, which Vert.x's getParam reads through, in one pass.
    int length = uri.length();
    int nameStart = from;
    int valueStart = -1;
    int kept = 0;
    for (int i = from; ; i++) {
      char c = i < length ? uri.charAt(i) : '#';
      if (c == '=') {
        if (nameStart == i) {
          nameStart = i + 1;
        } else if (valueStart < nameStart) {
          valueStart = i + 1;
        }
      } else if (c == '&' || c == ';' || c == '#') {
        if (nameStart < i) {
          kept++;
          boolean valued = valueStart > nameStart;
          int nameEnd = valued ? valueStart - 1 : i;
          if (nameEnd - nameStart == name.length() && uri.regionMatches(true, nameStart, name, 0, name.length())) {
            // An escape after the match is decoded by Vert.x too, and a malformed one fails the whole query.
            if (kept > PARAMS_LIMIT || uri.indexOf('%', i) >= 0) {
              return UNDECIDED;
            }
            return valued ? uri.substring(valueStart, i) : "";
          }
        }
        if (c == '#') {
          return null;
        }
        nameStart = i + 1;
      } else if (c == '%' || c == '+' || c > 0x7e) {
        return UNDECIDED;
      }
    }
  }

  /** Where the query begins (after its {@code ?}), or -1 when there is none before any {@code #}. */
  private static int queryStart(String uri) {
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c == '?') {
        return i + 1;
      }
      if (c == '#') {
        return -1;
      }
    }
    return -1;
  }
}
