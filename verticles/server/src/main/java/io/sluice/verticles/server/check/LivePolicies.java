package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.PolicyChanges;

import java.util.function.Supplier;

/**
 * The check API's policies in service: what the endpoints decide with and what the dashboard
 * shows, replaced as a whole by a reload so that both always see the same set.
 */
public final class LivePolicies implements Supplier<Policies> {

  private volatile Policies current;

  public LivePolicies(Policies initial) {
    this.current = initial;
  }

  @Override
  public Policies get() {
    return current;
  }

  /** Puts {@code next} in service; one reload at a time calls this. */
  public PolicyChanges replace(Policies next) {
    PolicyChanges changes = PolicyChanges.between(current, next);
    current = next;
    return changes;
  }
}
