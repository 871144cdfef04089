package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.OperatorSettings;
import io.sluice.verticles.server.front.ConnectionClosers;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;

import java.util.List;

/**
 * What the dashboard shows besides the instance: the check API's policies and what they decided,
 * the last hour's history, the operator settings (the configuration the admin API shows) and the
 * way to close a connection.
 * One per server, shared by every HTTP front and the {@link DashboardVerticle}.
 */
public record DashboardData(Policies policies, LimitActivity activity, History history, OperatorSettings operator,
                            ConnectionClosers closers) {

  public DashboardData(Policies policies, LimitActivity activity, OperatorSettings operator, ConnectionClosers closers) {
    this(policies, activity, new History(), operator, closers);
  }

  /** No policies, nothing decided yet, no configuration to show, no connection to close. */
  public static DashboardData empty() {
    return new DashboardData(Policies.none(), new LimitActivity(), OperatorSettings.defaults(), new ConnectionClosers());
  }

  List<String> policyNames() {
    return policies.all().stream().map(Policy::name).toList();
  }
}
