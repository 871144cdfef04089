package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.rls.RlsStats;
import io.sluice.verticles.server.settings.OperatorSettings;
import io.sluice.verticles.server.check.LivePolicies;
import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.reload.LastReload;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;

import java.util.List;

/**
 * What the dashboard shows besides the instance: the check API's policies in service and what they
 * decided, what Envoy's rate limit service answered, the last hour's history, the operator settings
 * (the configuration the admin API shows), the last reload, the way to close a connection, and
 * whether this server is a cluster node (only then is there a {@code /api/cluster} for the page to ask), and
 * the HTTP check API's and gRPC service's callers.
 * One per server, shared by every HTTP front and the {@link DashboardVerticle}.
 */
public record DashboardData(LivePolicies livePolicies, LimitActivity activity, RlsStats envoy, History history,
                            OperatorSettings operator, LastReload lastReload, ConnectionClosers closers,
                            boolean clustered, Callers callers) {

  public DashboardData(LivePolicies policies, LimitActivity activity, RlsStats envoy, OperatorSettings operator,
                       LastReload lastReload, ConnectionClosers closers, boolean clustered, Callers callers) {
    this(policies, activity, envoy, new History(), operator, lastReload, closers, clustered, callers);
  }

  /** No policies, nothing decided yet, no configuration to show, no reload, no connection to close, one node, no caller. */
  public static DashboardData empty() {
    return new DashboardData(new LivePolicies(Policies.none()), new LimitActivity(), new RlsStats(),
        OperatorSettings.defaults(), new LastReload(), new ConnectionClosers(), false,
        new Callers(Clock.SYSTEM));
  }

  /** The policies in service now: a reload may have replaced those the server started with. */
  Policies policies() {
    return livePolicies.get();
  }

  List<String> policyNames() {
    return policies().all().stream().map(Policy::name).toList();
  }
}
