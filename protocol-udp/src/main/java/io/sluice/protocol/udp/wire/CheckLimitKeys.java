package io.sluice.protocol.udp.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys a {@code check_limit} request asks about (spec §8): from a JSON object with optional
 * members {@code origin}, {@code ua} and {@code ip}, in this order,
 * {@code "<origin> ua=<ua>"}, {@code "<origin> ip=<ip>"}, {@code "<origin> global"}.
 *
 * <p>As in the original: a missing or {@code null} origin is {@code unspecified}; a missing or
 * {@code null} ua or ip is empty; an empty-string origin stays empty; the JSON text {@code null}
 * counts as {@code {}}; for repeated members the last one wins; other members are ignored.
 *
 * <p>Member values that are not strings are turned into text as follows (the original used them
 * as Perl strings; spec §8 leaves the Java behaviour to us):
 * <ul>
 *   <li>{@code true}/{@code false} → {@code 1}/{@code 0} (as Perl);</li>
 *   <li>an integer literal → its digits ({@code -0} → {@code 0});</li>
 *   <li>any other number → C's {@code %.15g}, which is how Perl prints a floating-point value
 *       ({@code 12.50} → {@code 12.5}, {@code 1.0} → {@code 1}, {@code 1E2} → {@code 100},
 *       {@code 1e-5} → {@code 1e-05}); zero of either sign → {@code 0}. Perl differs only in exotic
 *       cases where its internal integer/float choice shows ({@code 1e15} prints in full there);</li>
 *   <li>an object or array → its compact JSON text. Perl printed {@code HASH(0x55d0…)} with an
 *       address that changed per request, so every such request got a new, never-limited key; the
 *       JSON text is stable and, like Perl's text, matches none of the shipped rules.</li>
 * </ul>
 *
 * <p>The keys are decoded text (a {@code char} per Unicode code unit), unlike the byte strings of
 * {@code over_limit}; a key that is pure ASCII is the same either way, and a key whose characters
 * are all below U+0100 equals the {@code over_limit} key made of those bytes, just as Perl's hash
 * treated them.
 */
public final class CheckLimitKeys {

  private static final JsonFactory JSON = JsonFactory.builder().build();
  private static final String UNSPECIFIED_ORIGIN = "unspecified";
  private static final MathContext PERL_NUMBER_DIGITS = new MathContext(15, RoundingMode.HALF_EVEN);

  private CheckLimitKeys() {
  }

  /**
   * @param argument the {@code check_limit} argument as a byte string (one char per byte)
   * @return the three keys, in evaluation order
   * @throws MalformedCheckLimitException when the argument is not UTF-8, not one JSON value, or
   *                                      not an object or {@code null}
   */
  public static List<String> derive(String argument) throws MalformedCheckLimitException {
    Map<String, String> members = readMembers(decodeUtf8(argument));
    String origin = members.get("origin");
    if (origin == null) {
      origin = UNSPECIFIED_ORIGIN;
    }
    String ua = members.get("ua");
    String ip = members.get("ip");
    return List.of(
        origin + " ua=" + (ua == null ? "" : ua),
        origin + " ip=" + (ip == null ? "" : ip),
        origin + " global");
  }

  private static String decodeUtf8(String byteString) throws MalformedCheckLimitException {
    try {
      CharBuffer decoded = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(byteString.getBytes(StandardCharsets.ISO_8859_1)));
      return decoded.toString();
    } catch (CharacterCodingException notUtf8) {
      throw new MalformedCheckLimitException("argument is not valid UTF-8");
    }
  }

  /** Member name → value as text ({@code null} for JSON null); empty for the JSON text {@code null}. */
  private static Map<String, String> readMembers(String json) throws MalformedCheckLimitException {
    if (json.startsWith("\uFEFF")) {
      throw new MalformedCheckLimitException("byte order mark before the JSON text");
    }
    Map<String, String> members = new HashMap<>();
    try (JsonParser parser = JSON.createParser(json)) {
      JsonToken root = parser.nextToken();
      if (root == null) {
        throw new MalformedCheckLimitException("empty argument, expected a JSON object");
      }
      if (root == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = checkedText(parser.currentName());
          parser.nextToken();
          members.put(name, valueAsText(parser));
        }
      } else if (root != JsonToken.VALUE_NULL) {
        throw new MalformedCheckLimitException("JSON " + describe(root) + " where an object was expected");
      }
      if (parser.nextToken() != null) {
        throw new MalformedCheckLimitException("more text after the JSON object");
      }
    } catch (JsonProcessingException malformed) {
      throw new MalformedCheckLimitException("malformed JSON: " + malformed.getOriginalMessage());
    } catch (IOException unexpected) {
      throw new MalformedCheckLimitException("unreadable JSON: " + unexpected.getMessage());
    }
    return members;
  }

  private static String valueAsText(JsonParser parser) throws IOException, MalformedCheckLimitException {
    switch (parser.currentToken()) {
      case VALUE_STRING:
        return checkedText(parser.getText());
      case VALUE_NULL:
        return null;
      case VALUE_TRUE:
        return "1";
      case VALUE_FALSE:
        return "0";
      case VALUE_NUMBER_INT:
        return parser.getBigIntegerValue().toString();
      case VALUE_NUMBER_FLOAT:
        return perlFloatText(parser.getDoubleValue());
      case START_OBJECT:
      case START_ARRAY:
        return compactJson(parser);
      default:
        throw new MalformedCheckLimitException("unexpected JSON token " + parser.currentToken());
    }
  }

  private static String compactJson(JsonParser parser) throws IOException, MalformedCheckLimitException {
    StringWriter text = new StringWriter();
    try (JsonGenerator generator = JSON.createGenerator(text)) {
      generator.copyCurrentStructure(parser);
    }
    return checkedText(text.toString());
  }

  /**
   * A JSON string may carry a lone surrogate through a <code>&#92;ud800</code> escape; the original's JSON
   * decoder rejected that ("missing low surrogate"), and such text cannot be encoded back to UTF-8.
   */
  private static String checkedText(String text) throws MalformedCheckLimitException {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new MalformedCheckLimitException("unpaired surrogate in a JSON string");
      }
    }
    return text;
  }

  /** C's {@code %.15g}, Perl's default rendering of a floating-point number (zero prints as {@code 0}). */
  static String perlFloatText(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Inf" : "-Inf";
    }
    if (value == 0) {
      return "0";
    }
    BigDecimal rounded = new BigDecimal(value).round(PERL_NUMBER_DIGITS);
    int exponent = rounded.precision() - rounded.scale() - 1;
    if (exponent >= -4 && exponent < 15) {
      return rounded.stripTrailingZeros().toPlainString();
    }
    String digits = rounded.unscaledValue().abs().toString().replaceFirst("0+$", "");
    StringBuilder text = new StringBuilder();
    if (rounded.signum() < 0) {
      text.append('-');
    }
    text.append(digits.charAt(0));
    if (digits.length() > 1) {
      text.append('.').append(digits, 1, digits.length());
    }
    text.append(exponent < 0 ? "e-" : "e+");
    int magnitude = Math.abs(exponent);
    if (magnitude < 10) {
      text.append('0');
    }
    return text.append(magnitude).toString();
  }

  private static String describe(JsonToken token) {
    switch (token) {
      case START_ARRAY:
        return "array";
      case VALUE_STRING:
        return "string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "boolean";
      default:
        return token.toString();
    }
  }}
