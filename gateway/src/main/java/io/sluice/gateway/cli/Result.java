package io.sluice.gateway.cli;

import io.vertx.core.json.JsonObject;

/**
 * One reply as the client shows it: a line (or lines) for people, an object for {@code --json},
 * and whether the answer was a refusal (exit status 1): a Throttr {@code 00}, a denied check.
 */
record Result(boolean ok, String text, JsonObject json) {

  static Result ok(String text, JsonObject json) {
    return new Result(true, text, json.put("ok", true));
  }

  /** The server answered {@code 00}; {@code why} says what that means for this command. */
  static Result failed(String why, JsonObject json) {
    return new Result(false, "(00) " + why, json.put("ok", false).put("status", "00"));
  }

  /** The HTTP API said no (a denied check, nothing to reset); {@code text} says what it answered. */
  static Result refused(String text, JsonObject json) {
    return new Result(false, text, json.put("ok", false));
  }
}
