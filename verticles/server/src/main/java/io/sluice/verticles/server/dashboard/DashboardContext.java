package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** What every dashboard route reads: the instance it shows, and its persistence. */
record DashboardContext(Instance instance, PersistentShards persistence) {

  ValueSize valueSize() {
    return instance.valueSize();
  }

  /** Answers with the JSON and the status already set (200 unless changed). */
  static Future<Void> ok(RoutingContext context, JsonObject body) {
    return context.response().putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON).end(body.toBuffer());
  }
}
