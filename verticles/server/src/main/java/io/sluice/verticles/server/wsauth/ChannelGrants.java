package io.sluice.verticles.server.wsauth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * What a token's {@code sluice} claim grants:
 * {@code {"subscribe":["news","chat.*"],"publish":["chat.room1"],"presence":true}}. A missing claim
 * or member grants nothing.
 */
public record ChannelGrants(List<ChannelPattern> subscribe, List<ChannelPattern> publish, boolean presence) {

  public static final String CLAIM = "sluice";
  public static final ChannelGrants NONE = new ChannelGrants(List.of(), List.of(), false);

  public ChannelGrants {
    subscribe = List.copyOf(subscribe);
    publish = List.copyOf(publish);
  }

  /**
   * The grants of a token's payload.
   *
   * @throws IllegalArgumentException when the claim has the wrong shape: a token is refused rather
   *                                  than read in a way its issuer did not mean
   */
  public static ChannelGrants of(JsonObject payload) {
    Object claim = payload.getValue(CLAIM);
    if (claim == null) {
      return NONE;
    }
    if (!(claim instanceof JsonObject grants)) {
      throw new IllegalArgumentException("the \"" + CLAIM + "\" claim must be an object");
    }
    Object presence = grants.getValue("presence", false);
    if (!(presence instanceof Boolean allowed)) {
      throw new IllegalArgumentException("\"" + CLAIM + ".presence\" must be true or false");
    }
    return new ChannelGrants(patterns(grants, "subscribe"), patterns(grants, "publish"), allowed);
  }

  private static List<ChannelPattern> patterns(JsonObject grants, String member) {
    Object value = grants.getValue(member);
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray names)) {
      throw new IllegalArgumentException("\"" + CLAIM + "." + member + "\" must be an array of channel names");
    }
    List<ChannelPattern> patterns = new ArrayList<>(names.size());
    for (Object name : names) {
      if (!(name instanceof String text) || text.isEmpty()) {
        throw new IllegalArgumentException("\"" + CLAIM + "." + member + "\" must hold non-empty strings");
      }
      patterns.add(ChannelPattern.parse(text));
    }
    return patterns;
  }

  public boolean maySubscribe(String channel) {
    return anyMatches(subscribe, channel);
  }

  public boolean mayPublish(String channel) {
    return anyMatches(publish, channel);
  }

  static boolean anyMatches(List<ChannelPattern> patterns, String channel) {
    for (ChannelPattern pattern : patterns) {
      if (pattern.matches(channel)) {
        return true;
      }
    }
    return false;
  }
}
