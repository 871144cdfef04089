package io.sluice.verticles.server.dashboard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.browse.KeyPage;
import io.sluice.verticles.engine.browse.KeyPageScan;
import io.sluice.verticles.engine.browse.KeySummary;
import io.sluice.verticles.engine.shard.KeyDetail;
import io.sluice.verticles.engine.shard.KeyLookup;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.JsonBody;
import io.sluice.verticles.server.dispatch.ShardQueries;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The keys of the dashboard. Reads are operator views that count nothing (a paged scan, a
 * {@link KeyLookup}); writes are real Throttr requests (INSERT, SET, UPDATE, PURGE) run by the
 * owning shard, so the dashboard changes keys exactly as a client would.
 */
final class KeyRoutes {

  private static final String CREATE_EXAMPLE =
      "{\"key\":\"user:1\",\"type\":\"counter\",\"quota\":10,\"ttl\":60,\"ttlUnit\":\"seconds\"}";
  private static final String UPDATE_EXAMPLE = "{\"attribute\":\"quota\",\"change\":\"decrease\",\"value\":1}";

  /**
   * The deepest offset: each shard's scan keeps offset + limit keys, so this bounds its memory.
   * Deeper pages are reached with a cursor, which costs the same at any depth.
   */
  static final int MAX_OFFSET = 10_000;
  private static final Base64.Encoder CURSOR_TEXT = Base64.getUrlEncoder().withoutPadding();

  private final ShardQueries shards;
  private final KeyScans scans;
  private final DashboardContext dashboard;
  private final KeyStates states;

  KeyRoutes(ShardQueries shards, KeyScans scans, DashboardContext dashboard, KeyStates states) {
    this.shards = shards;
    this.scans = scans;
    this.dashboard = dashboard;
    this.states = states;
  }

  /** GET /api/keys?q=&cursor=&offset=&limit= */
  Future<Void> list(RoutingContext context) {
    Paging paging = Paging.of(context, MAX_OFFSET, "; page further with 'cursor' (each page's 'next')");
    byte[] search = Names.bytes(context.request().getParam("q", ""));
    byte[] after = cursor(context);
    return scans.walk(shards, context, shard -> new KeyPageScan(search, after, paging.offset() + paging.limit()))
        .compose(done -> DashboardContext.ok(context, json(KeyPage.merge(done, paging.offset(), paging.limit()), paging)));
  }

  private JsonObject json(KeyPage page, Paging paging) {
    long now = dashboard.instance().clock().epochNanos();
    JsonArray items = new JsonArray();
    for (KeySummary key : page.items()) {
      items.add(Names.put(new JsonObject(), "key", key.key())
          .put("type", key.counter() ? "counter" : "buffer")
          .put("ttlUnit", Names.ttlUnit(key.ttlType()))
          .put("expiresInMillis", TimeUnit.NANOSECONDS.toMillis(Math.max(0, key.expiresAtNanos() - now)))
          .put("bytes", key.counter() ? dashboard.valueSize().bytes() : key.valueBytes()));
    }
    // The offset is where the page sits among all matching keys, also when it was reached by cursor.
    return paging.envelope(page.total(), items).put("offset", page.offset())
        .put("next", page.next() == null ? null : CURSOR_TEXT.encodeToString(page.next()));
  }

  /** The key after which the page starts: the {@code next} of the page before, or null. */
  private static byte[] cursor(RoutingContext context) {
    String text = context.request().getParam("cursor", "");
    if (text.isEmpty()) {
      return null;
    }
    try {
      return Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException invalid) {
      throw ApiError.badRequest("'cursor' must be the 'next' of a page, not '" + text + "'");
    }
  }

  /** GET /api/keys/{key} */
  Future<Void> detail(RoutingContext context) {
    KeyLookup lookup = new KeyLookup(key(context));
    return shards.run(batchFor(lookup.key(), batch -> batch.add(lookup))).compose(done -> {
      KeyDetail detail = lookup.detail();
      if (detail == null) {
        throw notFound(context);
      }
      JsonObject json = Names.put(new JsonObject(), "key", detail.key())
          .put("type", detail.counter() ? "counter" : "buffer")
          .put("ttlUnit", Names.ttlUnit(detail.ttlType()))
          .put("ttl", detail.ttl());
      if (detail.counter()) {
        json.put("quota", detail.quota());
      } else {
        Names.put(json, "value", detail.buffer()).put("bytes", detail.buffer().length);
        JsonObject decoded = states.decode(detail.key(), detail.buffer(), dashboard.instance().clock().epochNanos());
        if (decoded != null) {
          json.put("decoded", decoded);
        }
      }
      json.put("stats", new JsonObject()
          .put("readsPerMinute", detail.readsPerMinute())
          .put("writesPerMinute", detail.writesPerMinute())
          .put("totalReads", detail.totalReads())
          .put("totalWrites", detail.totalWrites()));
      return DashboardContext.ok(context, json);
    });
  }

  /** POST /api/keys: INSERT a counter or SET a buffer. */
  Future<Void> create(RoutingContext context) {
    return JsonBody.read(context.request(), CREATE_EXAMPLE).compose(body -> {
      Fields fields = new Fields(body, dashboard.valueSize());
      byte[] key = fields.key();
      String type = fields.choice("type", List.of("counter", "buffer"));
      int ttlType = fields.ttlUnit().code();
      long ttl = fields.value("ttl");
      Request.KeyRequest request = type.equals("counter")
          ? new Request.Insert(fields.value("quota"), ttlType, ttl, key)
          : new Request.Set(ttlType, ttl, key, fields.bufferValue());
      return status(request).compose(accepted -> {
        if (!accepted) {
          throw new ApiError(409, "the key exists already (a counter is created only once)", null);
        }
        context.response().setStatusCode(201);
        return DashboardContext.ok(context, new JsonObject().put("created", true));
      });
    });
  }

  /** PATCH /api/keys/{key}: a Throttr UPDATE of the quota or the TTL. */
  Future<Void> update(RoutingContext context) {
    byte[] key = key(context);
    return JsonBody.read(context.request(), UPDATE_EXAMPLE).compose(body -> {
      Fields fields = new Fields(body, dashboard.valueSize());
      int attribute = fields.choice("attribute", List.of("quota", "ttl")).equals("quota")
          ? Request.Update.ATTRIBUTE_QUOTA : Request.Update.ATTRIBUTE_TTL;
      int change = List.of("patch", "increase", "decrease").indexOf(fields.choice("change",
          List.of("patch", "increase", "decrease")));
      Request.Update update = new Request.Update(attribute, change, fields.value("value"), key);
      KeyLookup exists = new KeyLookup(key);
      return shards.run(batchFor(key, batch -> {
        batch.add(exists);
        batch.add(update);
      })).compose(batch -> {
        if (exists.detail() == null) {
          throw notFound(context);
        }
        if (!succeeded(batch.replies())) {
          throw new ApiError(409, "Throttr refused the update (a quota below zero, or the quota of a buffer)", null);
        }
        return DashboardContext.ok(context, new JsonObject().put("updated", true));
      });
    });
  }

  /** DELETE /api/keys/{key}: a Throttr PURGE. */
  Future<Void> delete(RoutingContext context) {
    byte[] key = key(context);
    return status(new Request.Purge(key)).compose(purged -> {
      if (!purged) {
        throw notFound(context);
      }
      context.response().setStatusCode(204).putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON);
      return context.response().end();
    });
  }

  /** Runs one Throttr request with a one-byte status reply on the key's shard. */
  private Future<Boolean> status(Request.KeyRequest request) {
    return shards.run(request).map(batch -> succeeded(batch.replies()));
  }

  /** The status byte the batch's last request answered. */
  private static boolean succeeded(ByteBuf replies) {
    return replies.getByte(replies.writerIndex() - 1) == Responses.SUCCESS;
  }

  private ShardBatch batchFor(byte[] key, java.util.function.Consumer<ShardBatch> fill) {
    ShardBatch batch = shards.batchFor(key);
    fill.accept(batch);
    return batch;
  }

  private static byte[] key(RoutingContext context) {
    return Names.bytes(context.pathParam("key"));
  }

  private static ApiError notFound(RoutingContext context) {
    return new ApiError(404, "no live key '" + context.pathParam("key") + "'", null);
  }

  /** The fields of a create or update body, checked against what the Throttr protocol can carry. */
  private static final class Fields {

    private final JsonObject body;
    private final ValueSize size;

    Fields(JsonObject body, ValueSize size) {
      this.body = body;
      this.size = size;
    }

    byte[] key() {
      Object key = body.getValue("key");
      if (!(key instanceof String name) || name.isEmpty()) {
        throw ApiError.badRequest("'key' must be a non-empty string");
      }
      byte[] bytes = Names.bytes(name);
      if (bytes.length > 255) {
        throw ApiError.badRequest("'key' is " + bytes.length + " bytes; Throttr keys are at most 255");
      }
      return bytes;
    }

    String choice(String field, List<String> allowed) {
      Object value = body.getValue(field);
      if (!(value instanceof String chosen) || !allowed.contains(chosen)) {
        throw ApiError.badRequest("'" + field + "' must be one of " + allowed);
      }
      return chosen;
    }

    io.sluice.protocol.binary.codec.TtlUnit ttlUnit() {
      Object value = body.getValue("ttlUnit", "seconds");
      for (io.sluice.protocol.binary.codec.TtlUnit unit : io.sluice.protocol.binary.codec.TtlUnit.values()) {
        if (Names.ttlUnit(unit.code()).equals(value)) {
          return unit;
        }
      }
      throw ApiError.badRequest("'ttlUnit' must be one of nanoseconds, microseconds, milliseconds, seconds, "
          + "minutes, hours");
    }

    /** An integer from 0 to the largest the value size carries. */
    long value(String field) {
      Object value = body.getValue(field);
      if (value instanceof Integer || value instanceof Long) {
        long number = ((Number) value).longValue();
        if (number >= 0 && Long.compareUnsigned(number, size.max()) <= 0) {
          return number;
        }
      }
      throw ApiError.badRequest("'" + field + "' must be an integer from 0 to " + Long.toUnsignedString(size.max())
          + " (value size " + size.label() + ")");
    }

    byte[] bufferValue() {
      Object text = body.getValue("value");
      Object base64 = body.getValue("valueBase64");
      byte[] value;
      if (text instanceof String plain && base64 == null) {
        value = Names.bytes(plain);
      } else if (base64 instanceof String encoded && text == null) {
        try {
          value = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException invalid) {
          throw ApiError.badRequest("'valueBase64' is not valid base64");
        }
      } else {
        throw ApiError.badRequest("a buffer needs 'value' (text) or 'valueBase64', one of them");
      }
      if (Long.compareUnsigned(value.length, size.max()) > 0) {
        throw ApiError.badRequest("the value is " + value.length + " bytes; value size " + size.label()
            + " allows " + size.max());
      }
      return value;
    }
  }
}
