package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.PresencePart;
import io.sluice.verticles.server.pubsub.ChannelMessage;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
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

  /**
   * {@code {"event":"message","channel":…,"data":…}}, the push a JSON client receives; with
   * {@code "offset"} and {@code "epoch"} on a channel with history.
   */
  static String message(ChannelMessage pushed) {
    JsonObject message = new JsonObject().put("event", "message").put("channel", text(pushed.channel()));
    putData(message, pushed.payload());
    if (pushed.kept()) {
      message.put("offset", pushed.offset()).put("epoch", epoch(pushed.epoch()));
    }
    return message.encode();
  }

  /** An epoch as clients see it: 16 hex digits; null before the channel kept anything. */
  static String epoch(long epoch) {
    return epoch == 0 ? null : HexFormat.of().toHexDigits(epoch);
  }

  /** A client's epoch; one that is no epoch of ours reads as 0, which matches none. */
  static long epoch(Object given) {
    if (given instanceof String text && text.length() == 16 && HexFormat.isHexDigit(text.charAt(0))) {
      try {
        return HexFormat.fromHexDigitsToLong(text);
      } catch (IllegalArgumentException notHex) {
        return 0;
      }
    }
    return 0;
  }

  /** A subscribe with {@code since}: today's acknowledgement, and whether all was recovered and why not. */
  static String recoveredAck(String channel, ChannelHistory.Recovery recovery, String unreachable, Object id) {
    JsonObject ack = new JsonObject().put("event", "ack").put("op", "subscribe").put("channel", channel).put("status", 1)
        .put("recovered", unreachable == null && recovery.recovered())
        .put("epoch", recovery == null ? null : epoch(recovery.epoch()));
    String reason = unreachable != null ? unreachable : recovery.lost();
    if (reason != null) {
      ack.put("reason", reason);
    }
    return withId(ack, id).encode();
  }

  /** {@code {"event":"history","channel":…,"epoch":…,"messages":[{"offset":…,"data":…},…]}}. */
  static String history(String channel, ChannelHistory.Recovery latest, Object id) {
    JsonArray messages = new JsonArray();
    for (ChannelHistory.Entry entry : latest.messages()) {
      JsonObject message = new JsonObject().put("offset", entry.offset());
      putData(message, entry.payload());
      messages.add(message);
    }
    return withId(new JsonObject().put("event", "history").put("channel", channel).put("epoch", epoch(latest.epoch()))
        .put("messages", messages), id).encode();
  }

  /** A publish on a channel with history: acknowledged once numbered, with its offset. */
  static String numberedAck(String channel, long offset, long epoch, Object id) {
    return withId(new JsonObject().put("event", "ack").put("op", "publish").put("status", 1).put("channel", channel)
        .put("offset", offset).put("epoch", epoch(epoch)), id).encode();
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
