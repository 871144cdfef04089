package io.sluice.verticles.server;

import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The verticles one server deployed, so that a stop undeploys them last first: fronts before shards. */
final class Deployments {

  private final Vertx vertx;
  private final List<String> ids = new ArrayList<>();

  Deployments(Vertx vertx) {
    this.vertx = vertx;
  }

  Future<String> deploy(Deployable verticle) {
    return vertx.deployVerticle(verticle).onSuccess(ids::add);
  }

  /** One after the other, in the reverse order of their deployment. */
  Future<Void> undeployAll() {
    List<String> reversed = new ArrayList<>(ids);
    Collections.reverse(reversed);
    Future<Void> chain = Future.succeededFuture();
    for (String id : reversed) {
      chain = chain.compose(v -> vertx.undeploy(id));
    }
    return chain;
  }
}
