package io.sluice.verticles.strategies.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a reload changed in the policies, by name: added, changed (same name, another definition)
 * and removed, each in config order. A changed policy keeps its keys' states, so operators need to
 * know which ones changed to read their counters right.
 */
public record PolicyChanges(List<String> added, List<String> changed, List<String> removed) {

  public PolicyChanges {
    added = List.copyOf(added);
    changed = List.copyOf(changed);
    removed = List.copyOf(removed);
  }

  public static PolicyChanges between(Policies before, Policies after) {
    List<String> added = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    for (Policy policy : after.all()) {
      Policy old = before.get(policy.name());
      if (old == null) {
        added.add(policy.name());
      } else if (!definition(old).equals(definition(policy))) {
        changed.add(policy.name());
      }
    }
    for (Policy policy : before.all()) {
      if (after.get(policy.name()) == null) {
        removed.add(policy.name());
      }
    }
    return new PolicyChanges(added, changed, removed);
  }

  public boolean none() {
    return added.isEmpty() && changed.isEmpty() && removed.isEmpty();
  }

  /** {@code policies added [a], changed [b], removed [c]}, or {@code policies unchanged}. */
  public String describe() {
    return none() ? "policies unchanged"
        : "policies added " + added + ", changed " + changed + ", removed " + removed;
  }

  /**
   * Everything the config file says of a policy, as values that compare: strategy instances have
   * no value equality, their parameters as the file spells them do.
   */
  private static List<Object> definition(Policy policy) {
    Map<String, Object> parameters = PolicyParameters.of(policy.strategy());
    return List.of(parameters, policy.key().spelling(), policy.legacyHeaders(), policy.shadow(), policy.onFull());
  }
}
