package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.http.ApiError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.function.Function;

/**
 * The {@code offset}/{@code limit} of a paged list. Lists are paged on the server so the dashboard
 * stays fast with 100,000 keys and 1,000 connections.
 */
record Paging(int offset, int limit) {

  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 500;
  /** Deeper than any table a person pages through (the in-memory lists: connections, channels). */
  static final int MAX_OFFSET = 1_000_000;

  static Paging of(RoutingContext context) {
    return of(context, MAX_OFFSET, "");
  }

  /** With a smaller bound on the offset; {@code beyond} ends the error message for an offset over it. */
  static Paging of(RoutingContext context, int maxOffset, String beyond) {
    return new Paging(number(context, "offset", 0, 0, maxOffset, beyond),
        number(context, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT, ""));
  }

  private static int number(RoutingContext context, String name, int absent, int min, int max, String beyond) {
    String text = context.request().getParam(name);
    if (text == null || text.isEmpty()) {
      return absent;
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException notANumber) {
      value = Long.MIN_VALUE;
    }
    if (value >= min && value <= max) {
      return (int) value;
    }
    throw ApiError.badRequest("'" + name + "' must be an integer from " + min + " to " + max + ", not '" + text + "'"
        + (value > max ? beyond : ""));
  }

  /** One page of an in-memory list, as {@code {"total","offset","limit","items"}}. */
  <T> JsonObject page(List<T> all, Function<T, JsonObject> item) {
    JsonArray items = new JsonArray();
    int end = (int) Math.min((long) offset + limit, all.size());
    for (int i = offset; i < end; i++) {
      items.add(item.apply(all.get(i)));
    }
    return envelope(all.size(), items);
  }

  JsonObject envelope(long total, JsonArray items) {
    return new JsonObject().put("total", total).put("offset", offset).put("limit", limit).put("items", items);
  }
}
