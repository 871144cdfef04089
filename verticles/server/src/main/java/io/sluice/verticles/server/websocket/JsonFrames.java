package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.PresencePart;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON side of the bridge: what text frames say. Payloads are UTF-8 text when they are valid
 * UTF-8, otherwise base64 with {@code "encoding":"base64"}; clients publish either way.
 */
final class JsonFrames {

  static final String BASE64 = "base64";
  private static final String EXAMPLE = "{\"op\":\"subscribe\",\"channel\":\"news\"}";
  /** Where Jackson says it stopped, at the end of its message. */
  private static final Pattern PARSER_POSITION = Pattern.compile("line: (\\d+), column: (\\d+)");

  private JsonFrames() {
  }

  /** {@code {"event":"message","channel":…,"data":…}}, the push a JSON client receives. */
  static String message(byte[] channel, byte[] payload) {
    JsonObject message = new JsonObject().put("event", "message").put("channel", text(channel));
    putData(message, payload);
    return message.encode();
  }

  /** An acknowledgement with the same status byte the binary protocol would answer. */
  static String ack(String op, String channel, boolean ok, Object id) {
    JsonObject ack = new JsonObject().put("event", "ack").put("op", op).put("status", ok ? 1 : 0);
    if (channel != null) {
      ack.put("channel", channel);
    }
    return withId(ack, id).encode();
  }

  /**
   * Why a text message is no command, in the client's terms: where the JSON broke (line and column)
   * or that it is not an object, never the parser's own message with its internals.
   */
  static String notACommand(RuntimeException failure) {
    if (failure instanceof DecodeException) {
      Matcher at = PARSER_POSITION.matcher(String.valueOf(failure.getMessage()));
      return "not valid JSON" + (at.find() ? " (line " + at.group(1) + ", column " + at.group(2) + ")" : "")
          + "; send an object such as " + EXAMPLE;
    }
    return "not a JSON object; send an object such as " + EXAMPLE;
  }

  static String error(String reason, Object id) {
    return withId(new JsonObject().put("event", "error").put("reason", reason), id).encode();
  }

  /** A subscribe, publish or presence query the connection's token (or anonymity) does not allow; nothing changed. */
  static String forbidden(String op, String channel, Object id) {
    return withId(new JsonObject().put("event", "error").put("op", op).put("channel", channel)
        .put("reason", "forbidden"), id).encode();
  }

  /**
   * The answer to {@code {"op":"presence"}}: the users present on every node that answered, at most
   * {@link PresenceCensus#MAX_USERS} (the earliest; {@code truncated} says some were left out), and
   * how many anonymous clients; {@code complete} is false when a node did not answer in time.
   */
  static String presence(String channel, PresencePart part, Object id) {
    return withId(new JsonObject().put("event", "presence").put("channel", channel)
        .put("users", PresenceJson.users(part)).put("anonymous", part.anonymous())
        .put("truncated", part.truncated()).put("complete", part.complete()), id).encode();
  }

  /** {@code {"event":"join"|"leave","channel":…,"user":…,"connection":…}} */
  static String presenceEvent(String event, String channel, String user, String connection) {
    return new JsonObject().put("event", event).put("channel", channel).put("user", user)
        .put("connection", connection).encode();
  }

  /** A publish over {@code --ws-publish-rate}; -1 when no wait lets it through. */
  static String rateLimited(long retryAfterMillis, Object id) {
    return withId(new JsonObject().put("event", "error").put("op", "publish").put("reason", "rate limited")
        .put("retry_after_ms", retryAfterMillis), id).encode();
  }

  /** The bytes of a publish's data: UTF-8 text, or base64 when {@code encoding} says so. */
  static byte[] data(JsonObject command) {
    if (!(command.getValue("data") instanceof String data)) {
      throw new IllegalArgumentException("publish needs \"data\" as a string");
    }
    Object encodingValue = command.containsKey("encoding") ? command.getValue("encoding") : "utf-8";
    if (!(encodingValue instanceof String encoding)) {
      throw new IllegalArgumentException("\"encoding\" must be a string (utf-8 or base64)");
    }
    if (encoding.equalsIgnoreCase(BASE64)) {
      try {
        return Base64.getDecoder().decode(data);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("\"data\" is not valid base64");
      }
    }
    if (!encoding.equalsIgnoreCase("utf-8")) {
      throw new IllegalArgumentException("unknown encoding '" + encoding + "' (utf-8 or base64)");
    }
    return data.getBytes(StandardCharsets.UTF_8);
  }

  private static void putData(JsonObject message, byte[] payload) {
    try {
      message.put("data", MessageAssembler.strictUtf8(payload));
    } catch (CharacterCodingException e) {
      message.put("data", Base64.getEncoder().encodeToString(payload)).put("encoding", BASE64);
    }
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static JsonObject withId(JsonObject reply, Object id) {
    return id == null ? reply : reply.put("id", id);
  }
}
