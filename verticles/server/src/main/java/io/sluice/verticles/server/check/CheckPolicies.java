package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The configured policies as the endpoints look them up, each with its header fields built once. */
final class CheckPolicies {

  private final Policies source;
  private final Map<String, RateLimitFields> byName = new HashMap<>();
  private final String names;

  CheckPolicies(Policies policies) {
    this.source = policies;
    for (Policy policy : policies.all()) {
      byName.put(policy.name(), new RateLimitFields(policy));
    }
    this.names = policies.isEmpty() ? "none is configured (policies: in the --config file)"
        : "configured: " + policies.all().stream().map(Policy::name).limit(20).collect(Collectors.joining(", "))
            + (policies.all().size() > 20 ? ", …" : "");
  }

  /** Whether this lookup was built from {@code policies}, the very set (a reload brings another). */
  boolean isOf(Policies policies) {
    return source == policies;
  }

  /** @throws ApiError 400 naming the configured policies when there is no such policy */
  RateLimitFields get(String name) {
    if (name == null || name.isEmpty()) {
      throw new ApiError(400, "missing policy: name one (" + names + ")", null, "missing_policy");
    }
    RateLimitFields found = byName.get(name);
    if (found == null) {
      throw new ApiError(400, "unknown policy '" + name + "' (" + names + ")", null, "unknown_policy");
    }
    return found;
  }
}
