package io.sluice.verticles.strategies.policy;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The configured policies by name, in config order. Immutable. */
public final class Policies {

  private static final Policies NONE = new Policies(List.of());

  private final Map<String, Policy> byName;

  private Policies(Collection<Policy> policies) {
    Map<String, Policy> map = new LinkedHashMap<>();
    for (Policy policy : policies) {
      if (map.putIfAbsent(policy.name(), policy) != null) {
        throw new IllegalArgumentException("two policies are named " + policy.name());
      }
    }
    this.byName = Collections.unmodifiableMap(map);
  }

  public static Policies of(Collection<Policy> policies) {
    return policies.isEmpty() ? NONE : new Policies(policies);
  }

  public static Policies of(Policy... policies) {
    return of(List.of(policies));
  }

  public static Policies none() {
    return NONE;
  }

  /** The policy with this name, or null. */
  public Policy get(String name) {
    return byName.get(name);
  }

  public Collection<Policy> all() {
    return byName.values();
  }

  public boolean isEmpty() {
    return byName.isEmpty();
  }

  @Override
  public String toString() {
    return byName.keySet().toString();
  }
}
