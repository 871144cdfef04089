package io.sluice.verticles.server;

import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.server.check.LivePolicies;
import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.reload.LastReload;
import io.vertx.core.Vertx;

/**
 * What the parts of one server share.
 *
 * @param policies      the check API's policies, which a reload replaces
 * @param limitActivity what the rate limits decided, shared by the check API, the UDP endpoint and the dashboard
 * @param callers       the HTTP check API's and gRPC service's callers, which the dashboard lists
 * @param closers       where client connections register so that the admin API can close them
 * @param lastReload    what the last SIGHUP reload did, for the admin API
 */
record ServerWide(Vertx vertx, Instance instance, ServerMetrics metrics, Deployments deployments, LivePolicies policies,
                  LimitActivity limitActivity, Callers callers, ConnectionClosers closers, LastReload lastReload) {

  static ServerWide of(Vertx vertx, Instance instance, ServerMetrics metrics, LivePolicies policies) {
    return new ServerWide(vertx, instance, metrics, new Deployments(vertx), policies, new LimitActivity(),
        new Callers(instance.clock()), new ConnectionClosers(), new LastReload());
  }
}
