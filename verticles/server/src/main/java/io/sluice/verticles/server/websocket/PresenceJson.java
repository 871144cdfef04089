package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.Presence;
import io.sluice.verticles.engine.channel.PresencePart;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A presence part as JSON: what a node answers another (the clustered event bus carries JSON
 * objects, no Java serialization) and the members of the answer a client gets, one shape for both.
 */
final class PresenceJson {

  private PresenceJson() {
  }

  /** {@code {"users":[{"user":…,"connection":…,"since":…}],"named":N,"anonymous":N}} */
  static JsonObject of(PresencePart part) {
    return new JsonObject().put("users", users(part)).put("named", part.named()).put("anonymous", part.anonymous());
  }

  static JsonArray users(PresencePart part) {
    JsonArray users = new JsonArray();
    for (Presence member : part.users()) {
      users.add(new JsonObject().put("user", member.user().orElseThrow()).put("connection", member.connection())
          .put("since", member.sinceMillis()));
    }
    return users;
  }

  /**
   * Reads another node's part, at most {@code limit} users of it.
   *
   * @throws ClassCastException or NullPointerException when it has another shape
   */
  static PresencePart read(JsonObject part, int limit) {
    JsonArray listed = part.getJsonArray("users");
    List<Presence> users = new ArrayList<>(Math.min(limit, listed.size()));
    for (int i = 0; i < listed.size() && i < limit; i++) {
      JsonObject member = listed.getJsonObject(i);
      users.add(new Presence(Optional.of(member.getString("user")), member.getString("connection"),
          member.getLong("since")));
    }
    return new PresencePart(users, Math.max(users.size(), part.getLong("named")), part.getLong("anonymous"), true);
  }
}
